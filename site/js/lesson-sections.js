// KvSections: the lesson's reading sections, for lesson.js. The generator writes an empty
// .kv-section-mark where a `{{scenario NAME}}` stood; the blocks after it, up to the next mark or
// heading, are its section: {index, scenario, panel, elements}. The reading line sits a third of the
// way down the window: an IntersectionObserver reports a section's block crossing it (no scroll
// handler), and nothing happens while the reader stays in one section.
//   KvSections.scan(main, list) -> {sectionOf(node), watch(onCross)}; pushes each section onto `list`
//                                  (KvLesson.sections); onCross(section) as a block crosses the line
var KvSections = (function () {
  'use strict';

  function scan(main, list) {
    var sectionByElement = new Map();
    Array.prototype.forEach.call(main.querySelectorAll('.kv-chapter'), function (chapter) {
      var current = null;
      Array.prototype.forEach.call(chapter.children, function (el) {
        if (el.classList.contains('kv-section-mark')) {
          current = { index: list.length, scenario: el.getAttribute('data-section-scenario'),
                      panel: el.getAttribute('data-panel'), elements: [] };
          list.push(current);
          return;
        }
        if (el.tagName === 'H2') current = null;
        if (!current || el.matches('figure.kv-panel')) return;
        current.elements.push(el);
        sectionByElement.set(el, current);
      });
    });

    function sectionOf(node) {
      for (var el = node; el && el !== main; el = el.parentElement)
        if (sectionByElement.has(el)) return sectionByElement.get(el);
      return null;
    }

    function watch(onCross) {
      if (!window.IntersectionObserver || !list.length) return;
      var line = new IntersectionObserver(function (entries) {
        var hit = null;
        entries.forEach(function (e) { if (e.isIntersecting) hit = sectionByElement.get(e.target) || hit; });
        if (hit) onCross(hit);
      }, { rootMargin: '-33% 0px -66% 0px' });
      sectionByElement.forEach(function (section, el) { line.observe(el); });
    }

    return { sectionOf: sectionOf, watch: watch };
  }

  return { scan: scan };
})();

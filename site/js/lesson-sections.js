// KvSections: the lesson's reading sections, for lesson.js. The generator writes an empty
// .kv-section-mark where a `{{scenario NAME}}` stood; the blocks after it, up to the next mark or
// heading, are its section: {index, scenario, panel, elements, start}. The reading line sits a third
// of the way down the window: an IntersectionObserver reports what crosses it (no scroll handler),
// and nothing happens while the reader stays in one section. A section starts at its first figure
// (`start`; its first block when it quotes none): the text before it still reads beside the
// previous section's panel, so the panel changes as the sentence that needs it is read.
//   KvSections.scan(main, list) -> {sectionOf(node), watch(onCross)}; pushes each section onto `list`
//                                  (KvLesson.sections); onCross(section) as its part crosses the line
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

    // What crosses the line for each section: its first figure, then the blocks after that figure's.
    var watched = new Map();
    list.forEach(function (section) {
      var figure = null;
      section.elements.some(function (el) { figure = el.querySelector('.kv-fig'); return !!figure; });
      section.start = figure || section.elements[0] || null;
      var started = !figure;
      section.elements.forEach(function (el) {
        if (started) watched.set(el, section);
        else if (el.contains(figure)) { watched.set(figure, section); started = true; }
      });
    });

    function watch(onCross) {
      if (!window.IntersectionObserver || !list.length) return;
      var line = new IntersectionObserver(function (entries) {
        var hit = null;
        entries.forEach(function (e) { if (e.isIntersecting) hit = watched.get(e.target) || hit; });
        if (hit) onCross(hit);
      }, { rootMargin: '-33% 0px -66% 0px' });
      watched.forEach(function (section, el) { line.observe(el); });
    }

    return { sectionOf: sectionOf, watch: watch };
  }

  return { scan: scan };
})();

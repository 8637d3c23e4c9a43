// KvSections: the lesson's reading sections, for lesson.js. The generator writes an empty
// .kv-section-mark where a `{{scenario NAME}}` stood; the blocks after it, up to the next mark or
// heading, are its section: {index, scenario, panel, elements, start}. The reading line sits a third
// of the way down the window: an IntersectionObserver reports what crosses it (no scroll handler),
// and nothing happens while the reader stays in one section. A section starts at its first figure
// (`start`; its first block when it quotes none): the text before it still reads beside the
// previous section's panel, so the panel changes as the sentence that needs it is read.
//   KvSections.scan(main, list) -> {sectionOf(node), watch(onCross)}; pushes each section onto `list`
//                                  (KvLesson.sections); onCross(section) as its part crosses the line
//   KvSections.focusOf(section, knobs, scenarios) -> {knobs, reads}: what its panel draws first
//   KvSections.focusPanel(panel, scenarios)       the panel's section made its focus (wide layouts)
//   KvSections.scenariosOf(figure, scenarios)    -> the names of the scenarios a figure reads, in order
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

  // The knobs and result paths a section uses, for its panel's focus (the handle's focus()): the
  // fields its figures read, the knobs its sentences carry or name in quotes ("prompt tokens"), and
  // the fields its set-up buttons change. `knobs`: the panel's own ({field, label}).
  function focusOf(section, knobs, scenarios) {
    var reads = [], fields = [], labels = {};
    var add = function (list, value) { if (list.indexOf(value) < 0) list.push(value); };
    knobs.forEach(function (k) { labels[k.label.toLowerCase()] = k.field; });
    var from = scenarios[section.scenario] || {};
    section.elements.forEach(function (el) {
      Array.prototype.forEach.call(el.querySelectorAll('.kv-fig[data-refs]'), function (f) {
        if (f.closest('.kv-exercise')) return;   // an exercise's answer waits until it is asked for
        JSON.parse(f.getAttribute('data-refs')).forEach(function (ref) { add(reads, ref.slice(ref.indexOf('.') + 1)); });
      });
      Array.prototype.forEach.call(el.querySelectorAll('[data-knob]'), function (k) { add(fields, k.getAttribute('data-knob')); });
      (el.textContent.match(/[\u201c"][^\u201d"\n]{1,60}[\u201d"]/g) || []).forEach(function (quote) {
        var field = labels[quote.slice(1, -1).trim().toLowerCase()];
        if (field) add(fields, field);
      });
      Array.prototype.forEach.call(el.querySelectorAll('.kv-setup[data-setup]'), function (b) {
        var to = scenarios[b.getAttribute('data-setup')] || {};
        Object.keys(to).forEach(function (k) { if (JSON.stringify(to[k]) !== JSON.stringify(from[k])) add(fields, k); });
      });
    });
    return { knobs: fields.slice(0, 64), reads: reads.slice(0, 64) };
  }

  // A figure's refs begin with what they read: a scenario's name, or `fact` or `accuracy`.
  function scenariosOf(figure, scenarios) {
    return JSON.parse(figure.getAttribute('data-refs')).map(function (ref) { return ref.split('.')[0]; })
      .filter(function (name, i, all) { return scenarios[name] && all.indexOf(name) === i; });
  }

  // Beside the text (lesson.css's wide layout, where a panel sticks in its own column) the panel
  // draws its section's part first; in one column it stays whole, so its height moves no text.
  var wide = window.matchMedia ? window.matchMedia('(min-width: 70rem)') : { matches: false };
  function focusPanel(panel, scenarios) {
    if (!panel.handle) return;
    panel.handle.focus(wide.matches && panel.section ? focusOf(panel.section, panel.handle.knobs(), scenarios) : null);
  }

  return { scan: scan, focusOf: focusOf, focusPanel: focusPanel, scenariosOf: scenariosOf };
})();

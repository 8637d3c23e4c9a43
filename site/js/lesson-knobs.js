// Numbers the reader drags in the sentence ({{name.scenario.field | format knob}} in the lesson's
// Markdown). Each becomes a slider over its field's stops or choices, read from the core's catalog
// (the same the panel's knob moves through), with the text's own value among them. Moving it
// computes again, with the core, every figure of its paragraph that reads that scenario (figures
// of other scenarios stay as printed), and shows the scenario in the chapter's panel as the
// reader's choice. Escape puts the text's value back. Until the module loads, and without
// scripting, it is the printed number.
(function () {
  'use strict';

  var lesson = window.KvLesson;
  var knobs = document.querySelectorAll('.kv-knob[data-knob]');
  if (!lesson || !knobs.length || !window.KvPanels) return;

  // The generator's arithmetic: + - * / and parentheses over numbers and `scenario.path` references.
  function calculate(expr, valueOf) {
    var tokens = expr.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|[A-Za-z_][A-Za-z0-9_.]*|[-+*/()]/g) || [];
    var i = 0;
    function primary() {
      var t = tokens[i++];
      if (t === '(') { var inner = sum(); i++; return inner; }
      if (t === '-') return -primary();
      return /^\d/.test(t) ? Number(t) : valueOf(t);
    }
    function product() {
      var v = primary();
      while (tokens[i] === '*' || tokens[i] === '/') v = tokens[i++] === '*' ? v * primary() : v / primary();
      return v;
    }
    function sum() {
      var v = product();
      while (tokens[i] === '+' || tokens[i] === '-') v = tokens[i++] === '+' ? v + product() : v - product();
      return v;
    }
    return sum();
  }

  // The values the knob steps through: the field's stops or choices, and the text's own value.
  function stepsOf(row, printed) {
    var steps = row.choices ? row.choices.map(function (c) { return { value: c.value, label: c.label }; })
                            : (row.stops || []).map(function (s) { return { value: s.value }; });
    if (!steps.some(function (s) { return s.value === printed; })) {
      steps.push({ value: printed });
      steps.sort(function (a, b) { return a.value - b.value; });
    }
    return steps;
  }

  // A figure computed again from the core's results (valueOf), or its printed text at the text's value;
  // a value that is not finite (a ratio over an engine that refuses) is a dash.
  function refigure(f, valueOf, printed) {
    var fmt = f.getAttribute('data-format'), expr = f.getAttribute('data-expr');
    var value = fmt === 'text' ? valueOf(expr) : calculate(expr, valueOf);
    var shown = fmt === 'text' ? String(value) : (isFinite(value) ? KvPanels.format(value, fmt) : '\u2014');
    f.textContent = printed ? f.getAttribute('data-printed') : shown;
    f.classList.toggle('is-live', f.textContent !== f.getAttribute('data-printed'));
  }

  // What the engine says of a setting it will not run, as the panel's banner says it; '' when it runs.
  function refusal(result) {
    if (result.error) return result.error.message;
    if (result.status === 'ok') return '';
    if (result.startup_error) return result.startup_error.message;
    var failure = (result.log || []).filter(function (line) { return /^ERROR /.test(line); }).pop();
    return failure ? failure.slice(6) : result.status;
  }

  function setUp(knob, row) {
    var name = knob.getAttribute('data-scenario-name'), field = knob.getAttribute('data-knob');
    var format = knob.getAttribute('data-format');
    var printed = lesson.scenarioWithOwn(name)[field];
    var steps = stepsOf(row, printed);
    var start = steps.findIndex(function (s) { return s.value === printed; }), index = start;
    var text = function (step) { return step.label || (format === 'text' ? String(step.value) : KvPanels.format(step.value, format)); };
    var around = knob.closest('p, li') || knob.parentNode;
    var figures = Array.prototype.filter.call(around.querySelectorAll('.kv-fig'), function (f) {
      return f !== knob && KvSections.scenariosOf(f, lesson.scenarios).indexOf(name) >= 0;
    });
    figures.forEach(function (f) { f.setAttribute('data-printed', f.textContent); });

    knob.setAttribute('role', 'slider');
    knob.tabIndex = 0;
    knob.setAttribute('aria-label', row.label + ': drag sideways or use the arrow keys; Escape gives the text\u2019s value');
    // A number's slider reads its values; a choice's, the index of its choice (its label is the text).
    var ariaValue = function (i) { return row.choices ? i : steps[i].value; };
    knob.setAttribute('aria-valuetext', knob.textContent);
    knob.setAttribute('aria-valuemin', ariaValue(0));
    knob.setAttribute('aria-valuemax', ariaValue(steps.length - 1));
    knob.setAttribute('aria-valuenow', ariaValue(start));

    var note = around.appendChild(document.createElement('span'));
    note.className = 'kv-knob__note';
    note.setAttribute('role', 'status');
    note.id = 'kv-knob-note-' + knob.getAttribute('data-fig');
    knob.setAttribute('aria-describedby', note.id);

    function show(i) {
      var state = lesson.scenarioWithOwn(name);
      state[field] = steps[i].value;
      var results = {};
      results[name] = KvPanels.evaluate(state);
      if (results[name].error) {   // refused by name: the knob says why and stays where it was
        knob.setAttribute('aria-invalid', 'true');
        note.textContent = ' (' + refusal(results[name]) + ')';
        return;
      }
      var refused = refusal(results[name]);
      if (refused) knob.setAttribute('aria-invalid', 'true'); else knob.removeAttribute('aria-invalid');
      note.textContent = refused ? ' (At ' + text(steps[i]) + ': ' + refused + ')' : '';
      index = i;
      knob.textContent = text(steps[i]);
      knob.setAttribute('aria-valuetext', knob.textContent);
      knob.setAttribute('aria-valuenow', ariaValue(i));
      knob.classList.toggle('is-live', i !== start);
      var valueOf = function (ref) {
        var dot = ref.indexOf('.'), scenario = ref.slice(0, dot);
        if (!results[scenario]) results[scenario] = KvPanels.evaluate(lesson.scenarioWithOwn(scenario));
        return KvPanelHead.valueAt(results[scenario], ref.slice(dot + 1));
      };
      figures.forEach(function (f) { refigure(f, valueOf, i === start); });
      lesson.knobMoved(knob, state);
    }

    var move = function (i) { i = Math.max(0, Math.min(steps.length - 1, i)); if (i !== index) show(i); };
    listen(knob, { move: move, index: function () { return index; }, start: start, last: steps.length - 1 });
  }

  // Keys and a drag move the knob by stops: the arrows by one, Page Up/Down by five, Home and End
  // to the ends, Escape to the text's value; a step per 12 px dragged, never scrolling or selecting.
  function listen(knob, knobState) {
    knob.addEventListener('keydown', function (event) {
      var keys = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 5, PageDown: -5 };
      if (event.key in keys) knobState.move(knobState.index() + keys[event.key]);
      else if (event.key === 'Home') knobState.move(0);
      else if (event.key === 'End') knobState.move(knobState.last);
      else if (event.key === 'Escape') knobState.move(knobState.start);
      else return;
      event.preventDefault();
    });
    var drag = null;
    knob.addEventListener('pointerdown', function (event) {
      drag = { x: event.clientX, from: knobState.index() };
      knob.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    knob.addEventListener('pointermove', function (event) {
      if (drag) knobState.move(drag.from + Math.round((event.clientX - drag.x) / 12));
    });
    var stop = function () { drag = null; };
    knob.addEventListener('pointerup', stop);
    knob.addEventListener('pointercancel', stop);
  }

  // The knobs come alive once the module is there, whoever asked for it: a panel mounting as it
  // nears (lesson-layout.js), a restored address, or a knob nearing (below).
  KvPanels.loaded(function () {
    var fields = KvPanels.catalog('fields');
    Array.prototype.forEach.call(knobs, function (knob) {
      var row = fields[knob.getAttribute('data-knob')];
      if (row) setUp(knob, row);
    });
  });

  // A knob within a screen asks for the module: on a phone the first knob and the first panel are
  // screens down, and the opening screens are read without its download and start-up. Until it
  // comes (or if it never does), the knobs are their printed numbers.
  var start = function () { lesson.load().catch(function () { /* the printed numbers stand */ }); };
  if (!window.IntersectionObserver) return start();
  var near = new IntersectionObserver(function (entries) {
    if (!entries.some(function (e) { return e.isIntersecting; })) return;
    near.disconnect();
    start();
  }, { rootMargin: '100% 0px' });
  Array.prototype.forEach.call(knobs, function (knob) { near.observe(knob); });
})();

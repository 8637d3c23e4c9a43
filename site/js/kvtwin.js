// KvTwin: each panel's accessible twin, for readers who cannot use the canvas (a keyboard alone, a
// screen reader). KvPanels.mount() calls KvTwin.attach(handle) for every panel; beside the canvas it
// adds
//   - a strip of the panel's key results (handle.keyResults(), formatted by the core), each time- or
//     memory-valued one with the model's measured error band for its kind, which sticks
//     to the top of the window while its panel is on screen; its text for screen readers
//     (aria-live) is written once the state has settled, so a drag does not chatter;
//   - a disclosure, "Controls as a form", with a native labelled control for each knob the canvas
//     draws (handle.knobs(): the same rows and stops as wasm/knobs.cpp), sharing the panel's state
//     both ways: a control calls setState, a change on the canvas updates the controls;
//   - a badge for each field the page set that no knob here draws (a figure in the text forcing
//     multi-head attention into the two-phases panel), with a button that puts the default back.
// Nothing here formats a number or knows a field: the module says both.
var KvTwin = (function () {
  'use strict';

  var SETTLE_MS = 400;   // a state unchanged this long is announced
  var twins = 0;
  var defaults = null;   // what a badge compares with and its undo restores (see reference())

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The model against real vLLM, by kind of figure (site/generator/page/accuracy.cpp, baked into the
  // page as data-accuracy): the band is the median error on the held-out rows, which set nothing.
  var accuracy = null;
  function band(kind) {
    if (accuracy === null) {
      var holder = document.querySelector('[data-accuracy]');
      accuracy = (holder && JSON.parse(holder.getAttribute('data-accuracy') || 'null')) || {};
    }
    var table = accuracy[kind];
    return table ? KvPanels.format(table.holdout_median, 'band') : '';
  }
  var BAND_TITLE = {
    memory: 'typical error of the model\'s memory figures against real vLLM start-ups (median, held-out logs)',
    time: 'typical error of the model\'s times and throughputs against real vLLM benchmark runs (median, held-out runs)'
  };

  var same = function (a, b) { return JSON.stringify(a) === JSON.stringify(b); };

  // The index of the last stop at or below `value` (a value set from the page may lie between).
  function stopIndex(stops, value) {
    var index = 0;
    stops.forEach(function (s, i) { if (s.value <= value) index = i; });
    return index;
  }

  function valueText(knob, value) {
    if (value === null || value === undefined) return 'unset';
    if (knob.control === 'stops') {
      var stop = knob.stops[stopIndex(knob.stops, value)];
      return stop.value === value ? stop.text : KvPanels.format(value, 'sig3');
    }
    if (knob.control === 'range') return KvPanels.format(value, knob.format);
    if (knob.control === 'checkbox') return value ? 'on' : 'off';
    var option = knob.options.filter(function (o) { return same(o.value, value); })[0];
    return option ? option.label : String(value);
  }

  // One knob's row: label, control, its value as text, its help as the description.
  function knobRow(knob, base, set) {
    var id = base + '-' + knob.field;
    var row = el('div', { class: 'kv-twin__knob' });
    var help = el('p', { class: 'kv-twin__help', id: id + '-help' }, knob.help);
    var label = el('label', { for: id }, knob.label);
    var control, output = el('output', { for: id, class: 'kv-twin__value' });
    var current = null;   // the value shown; the engine's when an optional field is unset
    if (knob.control === 'choice') {
      control = el('select', { id: id });
      knob.options.forEach(function (o, i) { control.appendChild(el('option', { value: String(i) }, o.label)); });
      control.addEventListener('change', function () { set(knob.field, knob.options[Number(control.value)].value); });
    } else if (knob.control === 'checkbox') {
      control = el('input', { id: id, type: 'checkbox' });
      control.addEventListener('change', function () { set(knob.field, control.checked); });
    } else {
      var stops = knob.control === 'stops';
      control = el('input', stops ? { id: id, type: 'range', min: 0, max: knob.stops.length - 1, step: 1 }
                                  : { id: id, type: 'range', min: knob.min, max: knob.max, step: knob.step });
      control.addEventListener('input', function () {
        var v = stops ? knob.stops[Number(control.value)].value : Number(control.value);
        if (!same(v, current)) set(knob.field, v);
      });
    }
    control.setAttribute('aria-describedby', help.id);
    row.appendChild(label);
    row.appendChild(control);
    if (knob.control !== 'choice') row.appendChild(output);   // a select shows its own value
    var reset = null;
    if (knob.optional) {
      reset = el('button', { type: 'button', class: 'kv-twin__default' }, 'default');
      reset.setAttribute('aria-label', knob.label + ': the engine\'s default');
      reset.addEventListener('click', function () { set(knob.field, null); });
      row.appendChild(reset);
    }
    row.appendChild(help);
    // Shows `value` (null: unset, the engine resolved `resolved`).
    row.show = function (value, resolved) {
      var unset = value === null || value === undefined;
      current = unset ? resolved : value;
      var text = valueText(knob, current) + (unset && knob.optional ? ' (default)' : '');
      if (knob.control === 'checkbox') control.checked = !!current;
      else if (knob.control === 'choice') {
        var i = knob.options.map(function (o) { return JSON.stringify(o.value); }).indexOf(JSON.stringify(current));
        if (i < 0) {   // a value the list lacks (a config.json, another version): shown as it is
          control.querySelectorAll('[data-other]').forEach(function (o) { o.remove(); });
          var other = el('option', { value: '', 'data-other': '' }, text);
          control.insertBefore(other, control.firstChild);
        }
        control.value = i < 0 ? '' : String(i);
      } else {
        control.value = String(knob.control === 'stops' ? stopIndex(knob.stops, current) : current);
        control.setAttribute('aria-valuetext', text);
      }
      output.textContent = text;
      if (reset) reset.disabled = unset;
    };
    return row;
  }

  // The lesson's starting point where the page has one (the lesson pins max_num_seqs, which the
  // two-phases panel does not draw: no badge for that), else the core's defaults.
  function reference() {
    var main = document.querySelector('[data-base]');
    var base = main ? JSON.parse(main.getAttribute('data-base') || '{}') : {};
    return Object.assign({}, KvPanels.catalog('defaults'), base);
  }

  // The strip above the canvas: the key results as shown, their announcement, and the badges.
  function buildStrip(twin) {
    twin.strip = el('div', { class: 'kv-twin__strip', role: 'group', 'aria-label': 'Key results' });
    twin.shown = el('dl', { class: 'kv-twin__results', 'aria-hidden': 'true' });
    twin.live = el('p', { class: 'kv-twin__live', 'aria-live': 'polite' });
    twin.badges = el('div', { class: 'kv-twin__badges' });
    twin.strip.appendChild(twin.shown);
    twin.strip.appendChild(twin.live);
    twin.strip.appendChild(twin.badges);
  }

  // "Controls as a form": a message line for refusals, then a row per knob.
  function buildDetails(twin) {
    twin.details = el('details', { class: 'kv-twin' });
    twin.details.appendChild(el('summary', {}, 'Controls as a form'));
    twin.message = el('p', { class: 'kv-twin__message', role: 'alert' });
    twin.form = el('div', { class: 'kv-twin__knobs' });
    twin.details.appendChild(twin.message);
    twin.details.appendChild(twin.form);
  }

  function set(twin, field, value) {
    var partial = {};
    partial[field] = value;
    var reply = twin.handle.setState(partial);
    twin.message.textContent = reply.error ? 'Not applied: ' + reply.error.message : '';
    if (reply.error) update(twin);   // the controls go back to the state that stands
  }

  function build(twin) {
    var form = twin.form;
    var focused = form.contains(document.activeElement) ? document.activeElement.id : null;
    form.textContent = '';
    twin.rows = {};
    var setField = function (field, value) { set(twin, field, value); };
    twin.knobs.forEach(function (k) { if (k.drawn) form.appendChild(twin.rows[k.field] = knobRow(k, twin.base, setField)); });
    var again = focused && document.getElementById(focused);
    if (again) again.focus({ preventScroll: true });   // the control just used survives the rebuild
  }

  // The knobs the canvas draws change only with the serving panel's workload; reading them costs
  // a few milliseconds, so it waits until the state settles, not on every step of a drag.
  function refresh(twin) {
    twin.knobs = twin.handle.knobs();
    var now = twin.knobs.filter(function (k) { return k.drawn; }).map(function (k) { return k.field; }).join();
    if (now !== twin.drawn) { twin.drawn = now; build(twin); }
  }

  function announce(twin) {
    twin.live.textContent = twin.handle.keyResults().map(function (r) {
      var within = band(r.kind);
      return r.label + ': ' + r.text + (within ? ' (' + within + ')' : '');
    }).join('; ');
  }

  // Fields the page set that no knob here shows, each with a way back to the reference value.
  function showBadges(twin, state) {
    defaults = defaults || reference();
    twin.badges.textContent = '';
    twin.knobs.forEach(function (k) {
      if (k.drawn || !(k.field in defaults) || same(state[k.field], defaults[k.field])) return;
      var badge = el('p', { class: 'kv-twin__badge' });
      badge.appendChild(el('span', {}, k.label + ': ' + valueText(k, state[k.field]) + ' (set by the page or its address; not a knob here) '));
      var undo = el('button', { type: 'button' }, 'Undo');
      undo.setAttribute('aria-label', 'Undo ' + k.label + ': back to ' + valueText(k, defaults[k.field]));
      undo.addEventListener('click', function () { set(twin, k.field, defaults[k.field]); });
      badge.appendChild(undo);
      twin.badges.appendChild(badge);
    });
  }

  function show(twin) {
    var handle = twin.handle, rows = twin.rows;
    var state = handle.getState();
    // The engine's values for unset optional fields, read only when one is unset.
    var unset = Object.keys(rows).some(function (f) { return state[f] === null; });
    var resolved = unset ? handle.result().scenario || {} : {};
    Object.keys(rows).forEach(function (f) { rows[f].show(state[f], resolved[f]); });
    twin.shown.textContent = '';
    handle.keyResults().forEach(function (r) {
      var pair = el('div');
      pair.appendChild(el('dt', {}, r.label));
      var value = el('dd', { 'data-key': r.key }, r.text);
      var within = band(r.kind);
      if (within) value.appendChild(el('span', { 'class': 'kv-twin__band', 'data-kind': r.kind, title: BAND_TITLE[r.kind] }, ' ' + within));
      pair.appendChild(value);
      twin.shown.appendChild(pair);
    });
    showBadges(twin, state);
  }

  function update(twin) {
    show(twin);
    clearTimeout(twin.settle);
    twin.settle = setTimeout(function () {
      var before = twin.drawn;
      refresh(twin);
      if (twin.drawn !== before) show(twin);
      announce(twin);
    }, SETTLE_MS);
  }

  function attach(handle) {
    var canvas = handle.canvas;
    var frame = canvas.closest('.kv-panel__frame') || canvas;
    var twin = { handle: handle, base: 'kv-twin-' + (++twins), knobs: [], rows: {}, drawn: '', settle: null };
    buildStrip(twin);
    buildDetails(twin);
    if (!canvas.hasAttribute('aria-label'))
      canvas.setAttribute('aria-label', 'Interactive panel drawn on a canvas; its controls are also under "Controls as a form" above, its key results beside them');

    // Filled before it is shown: a live region announces changes, not its first content.
    refresh(twin);
    show(twin);
    announce(twin);
    frame.parentNode.insertBefore(twin.strip, frame);
    frame.parentNode.insertBefore(twin.details, frame);
    handle.onChange(function () { twin.message.textContent = ''; update(twin); });
    return { strip: twin.strip, details: twin.details };
  }

  return { attach: attach, SETTLE_MS: SETTLE_MS };
})();

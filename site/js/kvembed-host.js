// kvembed-host.js: for a course author's own page. Include it after the embedded panel(s):
//
//   <script src="kv/js/kvembed-host.js"></script>
//   <iframe data-kv-embed id="kv" src="kv/embed.html?panel=admission"></iframe>
//   <a href="#" data-kv-target="kv" data-kv-set='{"kv_cache_dtype": "fp8"}'>an FP8 cache</a>
//   <span data-kv-target="kv" data-kv-field="max_resident_sequences" data-kv-format="count"></span>
//
// data-kv-set: on click, puts those scenario fields (the CLI's names) into the panel.
// data-kv-field + data-kv-format: shows that field of the panel's current result, formatted by the
//   lesson's own formats (count, gib1, duration, x2, ...), kept up to date as the reader plays.
// data-kv-errors: receives the panel's messages about rejected fields.
// data-kv-target names the iframe's id; with one embedded panel on the page it may be left out.
// Talks to embed.html by postMessage only; needs nothing else from the page.
(function () {
  'use strict';

  var frames = Array.prototype.slice.call(document.querySelectorAll('iframe[data-kv-embed]'));
  if (!frames.length) return;

  function frameFor(element) {
    var id = element.getAttribute('data-kv-target');
    if (!id) return frames.length === 1 ? frames[0] : null;
    return frames.filter(function (f) { return f.id === id; })[0] || null;
  }

  function targeting(frame, selector) {
    return Array.prototype.filter.call(document.querySelectorAll(selector), function (el) {
      return frameFor(el) === frame;
    });
  }

  function watchList(frame) {
    var seen = {}, list = [];
    targeting(frame, '[data-kv-field]').forEach(function (el) {
      var pair = [el.getAttribute('data-kv-field'), el.getAttribute('data-kv-format') || 'sig3'];
      if (!seen[pair.join('|')]) { seen[pair.join('|')] = true; list.push(pair); }
    });
    return list;
  }

  function send(frame, message) {
    if (frame.contentWindow) frame.contentWindow.postMessage(message, '*');
  }

  window.addEventListener('message', function (event) {
    var frame = frames.filter(function (f) { return f.contentWindow === event.source; })[0];
    var data = event.data;
    if (!frame || !data || typeof data.kv !== 'string') return;
    if (data.kv === 'ready') send(frame, { kv: 'watch', fields: watchList(frame) });
    if (data.kv !== 'change') return;
    targeting(frame, '[data-kv-field]').forEach(function (el) {
      var key = el.getAttribute('data-kv-field') + '|' + (el.getAttribute('data-kv-format') || 'sig3');
      if (data.values && key in data.values) el.textContent = data.values[key];
    });
    targeting(frame, '[data-kv-errors]').forEach(function (el) {
      el.textContent = (data.errors || []).map(function (e) { return e.message; }).join('; ');
    });
  });

  // The panel may have said 'ready' before this script ran: ask once now, and again on each load.
  frames.forEach(function (frame) {
    send(frame, { kv: 'watch', fields: watchList(frame) });
    frame.addEventListener('load', function () { send(frame, { kv: 'watch', fields: watchList(frame) }); });
  });

  document.addEventListener('click', function (event) {
    var el = event.target.closest && event.target.closest('[data-kv-set]');
    if (!el) return;
    var frame = frameFor(el);
    if (!frame) return;
    event.preventDefault();
    var state;
    try { state = JSON.parse(el.getAttribute('data-kv-set')); } catch (e) { return; }
    send(frame, { kv: 'set', state: state });
  });
})();

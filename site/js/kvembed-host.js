// kvembed-host.js: for a course author's own page. The snippet, the attributes and the protocol
// are documented in site/README.md ("Embedding in a course"); the snippet itself is
// site/templates/host-snippet.html, which the lesson shows as it is.
//
// Works wherever the <script> stands (head, before or after the frames): it waits for the document,
// then binds every iframe with data-kv-embed (or named by a data-kv-target, or that speaks the
// panel's protocol from the panel's own page), and a MutationObserver binds frames and elements
// added later. A frame is heard only from the origin its src names, and only if that src is an
// embed.html: a sibling frame of another page or origin is never adopted, sized or believed.
//   data-kv-set='{"field": value}'   on click, sets those scenario fields; the others stay
//   data-kv-scenario='{...}'         on click, a whole scenario: fields not named take the defaults
//   data-kv-reset                    on click, back to the state the frame's address gave
//   data-kv-field + data-kv-format   shows that result field (a dotted path) of the panel's current
//                                    state, formatted by the lesson's formats (default sig3; `text`
//                                    prints it as is); the element's own text stays until then
//   data-kv-errors                   the panel's messages: refused values, fields it cannot show, a failed start
//   data-kv-target="id"              the iframe's id; may be left out with one panel on the page
// Each frame is sized to its panel's height (the panel reports it, and every change of it).
// Clicks before the panel is ready are queued and sent when it is. What cannot be bound (no frame,
// an unknown panel, field or format, bad JSON) is said once in the console and kept in
// KvEmbedHost.problems; the author's fallback text is never blanked.
// window.KvEmbedHost: state(frame), set(frame, fields), scenario(frame, fields), reset(frame),
// frames(), problems; frame is the iframe or its id, or null with one panel (set(null, fields)).
// Each iframe also receives a 'kv-change' event, detail {state, values, errors}.
(function () {
  'use strict';
  if (window.KvEmbedHost) return;   // included twice

  var records = [];                 // {frame, heard, ready, queue, state, values, errors, unbound, watchKey}
  var reported = Object.create(null);
  var host = window.KvEmbedHost = { problems: [] };
  var ACTIONS = '[data-kv-set],[data-kv-scenario],[data-kv-reset]';
  var BOUND = ACTIONS + ',[data-kv-field],[data-kv-errors]';

  function problem(text) {
    if (reported[text]) return;
    reported[text] = true;
    host.problems.push(text);
    if (window.console) console.warn('kvembed-host.js: ' + text);
  }

  function describe(el) {
    var text = '<' + el.tagName.toLowerCase();
    ['id', 'data-kv-target', 'data-kv-field', 'data-kv-format', 'data-kv-set', 'data-kv-scenario'].forEach(function (name) {
      if (el.hasAttribute(name)) text += ' ' + name + '="' + el.getAttribute(name) + '"';
    });
    return text + '>';
  }

  function each(selector, fn) { Array.prototype.forEach.call(document.querySelectorAll(selector), fn); }

  // ---- Frames -----------------------------------------------------------------------------------

  function recordOf(frame) {
    for (var i = 0; i < records.length; ++i) if (records[i].frame === frame) return records[i];
    return null;
  }

  function adopt(frame) {
    var r = recordOf(frame);
    if (r) return r;
    r = { frame: frame, heard: false, ready: false, queue: [], state: null, values: {}, errors: [], unbound: [], watchKey: null };
    records.push(r);
    // Until the panel reports its height, the height its address names, if any.
    var m = /[?&#]height=(\d+)/.exec(frame.getAttribute('src') || '');
    if (m && !frame.style.height) fit(r, Number(m[1]));
    sendWatch(r, true);
    setTimeout(function () {
      if (!r.heard && frame.isConnected)
        problem(describe(frame) + ' has not answered in 20 s: is its src the site\'s embed.html, with the site\'s js/ folder beside it?');
    }, 20000);
    return r;
  }

  // The origin a frame's src names ('null' for file:, as the browser reports it), or null when
  // the src is not the panel's page.
  function panelOrigin(frame) {
    var url;
    try { url = new URL(frame.getAttribute('src') || '', location.href); } catch (e) { return null; }
    if (!/(^|\/)embed\.html$/.test(url.pathname)) return null;
    return url.protocol === 'file:' ? 'null' : url.origin;
  }

  // The record of the frame a message came from, if that frame is a panel speaking from its origin.
  function recordFromWindow(source, origin) {
    var frame = null;
    for (var i = 0; i < records.length && !frame; ++i) if (records[i].frame.contentWindow === source) frame = records[i].frame;
    var frames = document.getElementsByTagName('iframe');
    for (var j = 0; j < frames.length && !frame; ++j) if (frames[j].contentWindow === source) frame = frames[j];
    // In a sandboxed page (an LMS's frame) every frame's origin is opaque, 'null': the src decides.
    var opaque = window.origin === 'null' && origin === 'null';
    if (!frame || !panelOrigin(frame) || (panelOrigin(frame) !== origin && !opaque)) return null;
    return adopt(frame);
  }

  // The frame an element drives or shows: {record} or {why}.
  function targetOf(el) {
    var id = el.getAttribute('data-kv-target');
    if (id) {
      var target = document.getElementById(id);
      if (!target) return { why: 'data-kv-target="' + id + '" names no element on the page' };
      if (target.tagName !== 'IFRAME') return { why: 'data-kv-target="' + id + '" names a <' + target.tagName.toLowerCase() + '>, not the panel\'s iframe' };
      return { record: adopt(target) };
    }
    if (records.length === 1) return { record: records[0] };
    if (!records.length) return { why: 'the page has no embedded panel (an iframe with data-kv-embed whose src is the site\'s embed.html)' };
    return { why: 'the page has ' + records.length + ' panels, so data-kv-target must name one (' +
      records.map(function (r) { return r.frame.id ? '"' + r.frame.id + '"' : 'one without an id'; }).join(', ') + ')' };
  }

  function bound(r, selector) {
    return Array.prototype.filter.call(document.querySelectorAll(selector), function (el) {
      return targetOf(el).record === r;
    });
  }

  function formatOf(el) { return el.getAttribute('data-kv-format') || 'sig3'; }

  function send(r, message) {
    // Only to the panel's origin: if the frame was navigated elsewhere, nothing is sent there.
    var origin = panelOrigin(r.frame);
    var target = origin === 'null' || window.origin === 'null' ? '*' : origin;   // an opaque origin cannot be named
    if (r.frame.contentWindow && origin) r.frame.contentWindow.postMessage(message, target);
  }

  function sendWatch(r, force) {
    var seen = {}, list = [];
    bound(r, '[data-kv-field]').forEach(function (el) {
      var pair = [el.getAttribute('data-kv-field'), formatOf(el)];
      if (!seen[pair.join('|')]) { seen[pair.join('|')] = true; list.push(pair); }
    });
    var key = JSON.stringify(list);
    if (!force && key === r.watchKey) return;
    r.watchKey = key;
    send(r, { kv: 'watch', fields: list });
  }

  function deliver(r, message) {
    if (r.ready) send(r, message);
    else r.queue.push(message);
  }

  function fit(r, height) {
    if (!(height > 0)) return;
    var style = getComputedStyle(r.frame);
    var px = function (v) { return parseFloat(v) || 0; };
    var extra = style.boxSizing === 'border-box' ? px(style.borderTopWidth) + px(style.borderBottomWidth) +
      px(style.paddingTop) + px(style.paddingBottom) : 0;
    r.frame.style.height = Math.ceil(height + extra) + 'px';
  }

  // ---- What the panel says ----------------------------------------------------------------------

  function show(r) {
    var unbound = {};
    r.unbound.forEach(function (u) { unbound[u.field + '|' + u.format] = u; });
    bound(r, '[data-kv-field]').forEach(function (el) {
      var key = el.getAttribute('data-kv-field') + '|' + formatOf(el);
      if (unbound[key]) problem(describe(el) + ': ' + unbound[key].message);
      else if (key in r.values) el.textContent = r.values[key];
    });
    var texts = r.errors.map(function (e) { return e.message; })
      .concat(r.unbound.map(function (u) { return u.message; }));
    bound(r, '[data-kv-errors]').forEach(function (el) {
      var text = texts.join(' ');
      if (el.textContent !== text) el.textContent = text;
    });
  }

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || typeof data.kv !== 'string') return;
    var r = recordFromWindow(event.source, event.origin);
    if (!r) return;
    r.heard = true;
    if (data.kv === 'hello') {            // the frame (re)started: it listens now
      r.ready = false;
      sendWatch(r, true);
    } else if (data.kv === 'height') {
      fit(r, Number(data.height));
    } else if (data.kv === 'failed') {     // said where the page shows problems; queued clicks go
      r.queue = [];
      r.errors = [{ message: String(data.message) }];
      problem(describe(r.frame) + ': ' + data.message);
      show(r);
    } else if (data.kv === 'ready' || data.kv === 'change') {
      if (data.state) r.state = data.state;
      if (data.kv === 'ready') {
        (data.errors || []).forEach(function (e) { problem(describe(r.frame) + ': ' + e.message); });
      } else {
        r.values = data.values || {};
        r.unbound = data.unbound || [];
      }
      r.errors = data.errors || [];
      show(r);
      if (!r.ready) {
        r.ready = true;
        r.queue.splice(0).forEach(function (message) { send(r, message); });
      }
      if (data.kv === 'change' && typeof CustomEvent === 'function')
        r.frame.dispatchEvent(new CustomEvent('kv-change', { detail: { state: r.state, values: r.values, errors: r.errors } }));
    }
  });

  // ---- Clicks -----------------------------------------------------------------------------------

  function messageFor(el) {
    if (el.hasAttribute('data-kv-reset')) return { kv: 'reset' };
    var name = el.hasAttribute('data-kv-set') ? 'data-kv-set' : 'data-kv-scenario';
    var state;
    try { state = JSON.parse(el.getAttribute(name)); } catch (e) { state = null; }
    if (!state || typeof state !== 'object' || Array.isArray(state)) {
      problem(describe(el) + ': ' + name + ' must be a JSON object of scenario fields, like \'{"prompt_tokens": 32768}\'');
      return null;
    }
    return { kv: name === 'data-kv-set' ? 'set' : 'scenario', state: state };
  }

  document.addEventListener('click', function (event) {
    var el = event.target.closest && event.target.closest(ACTIONS);
    if (!el) return;
    scan();
    var t = targetOf(el);
    if (!t.record) { problem(describe(el) + ': ' + t.why); return; }
    event.preventDefault();
    var message = messageFor(el);
    if (message) deliver(t.record, message);
  });

  // ---- Finding frames, now and later ------------------------------------------------------------

  function scan() {
    records = records.filter(function (r) { return r.frame.isConnected; });
    each('iframe[data-kv-embed]', adopt);
    each('[data-kv-target]', function (el) {
      var target = document.getElementById(el.getAttribute('data-kv-target'));
      if (target && target.tagName === 'IFRAME') adopt(target);
    });
    records.forEach(function (r) { sendWatch(r, false); show(r); });
  }

  // Says once what cannot be bound; run when the page has loaded and after later changes settle.
  function audit() {
    scan();
    each(BOUND, function (el) {
      var t = targetOf(el);
      if (!t.record) problem(describe(el) + ': ' + t.why);
      else if (el.matches('[data-kv-set],[data-kv-scenario]') && !el.hasAttribute('data-kv-reset')) {
        var name = el.hasAttribute('data-kv-set') ? 'data-kv-set' : 'data-kv-scenario';
        try { JSON.parse(el.getAttribute(name)); } catch (e) {
          problem(describe(el) + ': ' + name + ' is not JSON (' + e.message + ')');
        }
      }
    });
  }

  var auditTimer = null;
  function later() {
    scan();
    clearTimeout(auditTimer);
    auditTimer = setTimeout(audit, 1000);
  }

  function start() {
    scan();
    if (window.MutationObserver) {
      var pendingScan = false;
      new MutationObserver(function (mutations) {
        // Only changes that can add, remove or retarget a binding; not the text this script writes.
        var relevant = mutations.some(function (m) {
          if (m.type === 'attributes') return true;
          return Array.prototype.some.call(m.addedNodes, function (n) { return n.nodeType === 1; }) ||
                 Array.prototype.some.call(m.removedNodes, function (n) { return n.nodeType === 1; });
        });
        if (!relevant || pendingScan) return;
        pendingScan = true;
        setTimeout(function () { pendingScan = false; later(); }, 0);
      }).observe(document.documentElement, { childList: true, subtree: true, attributes: true,
        attributeFilter: ['data-kv-embed', 'data-kv-target', 'data-kv-field', 'data-kv-format', 'data-kv-set',
                          'data-kv-scenario', 'data-kv-reset', 'data-kv-errors', 'id', 'src'] });
    }
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();

  // ---- For the page's own scripts ---------------------------------------------------------------

  function recordFor(frame) {
    if (typeof frame === 'string') frame = document.getElementById(frame);
    if (frame && frame.tagName === 'IFRAME') return adopt(frame);
    if (frame == null) { scan(); if (records.length === 1) return records[0]; }
    throw new Error('KvEmbedHost: name the panel\'s iframe (or its id)');
  }
  host.frames = function () { scan(); return records.map(function (r) { return r.frame; }); };
  host.state = function (frame) {
    var r = recordFor(frame);
    return r.state ? JSON.parse(JSON.stringify(r.state)) : null;
  };
  host.set = function (frame, fields) { deliver(recordFor(frame), { kv: 'set', state: fields }); };
  host.scenario = function (frame, fields) { deliver(recordFor(frame), { kv: 'scenario', state: fields || {} }); };
  host.reset = function (frame) { deliver(recordFor(frame), { kv: 'reset' }); };
})();

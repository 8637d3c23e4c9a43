// embed.html: one panel, its state from the address. `?panel=phases&prompt_tokens=32768` (or the
// same after `#`, which wins) picks the panel and sets any scenario field by the CLI's names. A bad
// parameter is listed by name with what is allowed, and every other parameter still applies.
// The panel's state is mirrored into the hash as the reader changes it.
//
// A course page drives the panel through postMessage (site/js/kvembed-host.js does this):
//   in:  {kv: 'set', state: {...}}                 set fields; bad ones are reported back
//        {kv: 'watch', fields: [[field, format]]}  which formatted values the host wants
//   out: {kv: 'ready'}                             the panel is mounted
//        {kv: 'change', state, values, errors}     after every change; values[field + '|' + format]
// Messages go to any framing origin by default: the panel's data is public. A course site that
// wants them kept to itself lists its origins: `?host=https://course.example.edu` (repeat the
// parameter or separate origins with commas); the panel then posts only there and ignores
// messages from any other origin.
// window.KvEmbed exposes the handle and the messages for tests.
(function () {
  'use strict';

  document.documentElement.classList.add('kv-js');
  var main = document.querySelector('.kv-embed__main');
  var list = main.querySelector('.kv-embed__messages');
  var canvas = main.querySelector('canvas');
  var status = main.querySelector('.kv-panel__status');
  var defaults = JSON.parse(main.getAttribute('data-defaults') || '{}');
  var limits = JSON.parse(main.getAttribute('data-limits') || '{}');
  var knownFields = Object.keys(defaults);
  var embed = window.KvEmbed = { handle: null, messages: [], kind: null };
  var watched = [];
  var formatModule = null;

  function showMessages(messages) {
    embed.messages = messages;
    list.textContent = '';
    messages.forEach(function (m) {
      var item = document.createElement('li');
      item.textContent = m.message;
      item.setAttribute('data-field', m.field);
      list.appendChild(item);
    });
    list.hidden = messages.length === 0;
  }

  var query = KvState.parse(location.search);
  var hash = KvState.parse(location.hash);
  // `host` lists the origins allowed to drive the panel; it is not a scenario field.
  var hosts = [];
  var fields = query.fields.concat(hash.fields).filter(function (pair) {
    if (pair[0] !== 'host') return true;
    pair[1].split(',').forEach(function (origin) { if (origin.trim()) hosts.push(origin.trim()); });
    return false;
  });
  var requested = hash.panel || query.panel;
  var kind = requested || 'admission';
  var messages = [];
  if (KvState.PANELS.indexOf(kind) < 0) {
    messages.push({ field: 'panel', message: 'panel "' + requested + '" is not a panel; use ' +
      KvState.PANELS.join(', ') + '. Showing admission.' });
    kind = 'admission';
  }
  embed.kind = kind;
  embed.hosts = hosts;

  // Formats values for the host page with core/format.hpp (through the module's formatValue).
  function formatter() {
    if (window.KvPanels && KvPanels.format) return Promise.resolve(KvPanels.format);
    if (!formatModule) formatModule = window.createKvModule().then(function (m) { return m.formatValue; });
    return formatModule;
  }

  function post(message) {
    if (!window.parent || window.parent === window) return;
    if (!hosts.length) window.parent.postMessage(message, '*');
    else hosts.forEach(function (origin) { window.parent.postMessage(message, origin); });
  }

  var applyingSet = false;  // a host's set is being applied: its own report follows

  function report(state, errors) {
    if (!window.parent || window.parent === window) return;
    var result = embed.handle.result();
    formatter().then(function (format) {
      var values = {};
      watched.forEach(function (w) {
        var v = w[0].split('.').reduce(function (o, k) { return o == null ? o : o[k]; }, result);
        values[w[0] + '|' + w[1]] = typeof v === 'number' ? format(v, w[1]) : v == null ? '' : String(v);
      });
      post({ kv: 'change', state: state, values: values, errors: errors || [] });
    });
  }

  if (!window.KvPanels) {
    status.textContent = 'The panel script (js/kvpanels.js) did not load.';
    return;
  }
  status.textContent = 'Loading the panel…';
  KvPanels.mount(canvas, { panel: kind, state: defaults, moduleUrl: main.getAttribute('data-module') })
    .then(function (handle) {
      embed.handle = handle;
      main.classList.add('is-mounted');
      messages = messages.concat(KvState.applyFields(handle, fields, knownFields));
      showMessages(messages);
      handle.onChange(function (state) {
        try { history.replaceState(null, '', '#' + KvState.toQuery(kind, state, defaults)); } catch (e) { /* file:// */ }
        if (!applyingSet) report(state);
      });
      post({ kv: 'ready' });
      if (watched.length) report(handle.getState());
    }, function (error) {
      status.textContent = 'The panel could not start: ' + error.message;
      main.classList.add('is-failed');
    });

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || !event.data) return;
    if (hosts.length && hosts.indexOf(event.origin) < 0) return;  // not one of the listed hosts
    var data = event.data;
    if (data.kv === 'watch' && Array.isArray(data.fields)) {
      watched = data.fields.filter(function (w) { return Array.isArray(w) && w.length === 2; });
      if (embed.handle) report(embed.handle.getState());
    } else if (!embed.handle) {
      return;
    } else if (data.kv === 'set' && data.state && typeof data.state === 'object') {
      var pairs = Object.keys(data.state).map(function (k) {
        var v = data.state[k];
        return [k, typeof v === 'string' ? v : JSON.stringify(v)];
      });
      // One 'change' for the whole set, with its errors: the panel's own change notices arrive in
      // microtasks queued by applyFields, so the report waits behind them.
      applyingSet = true;
      var errors = KvState.applyFields(embed.handle, pairs, knownFields);
      if (errors.length) showMessages(errors);
      queueMicrotask(function () {
        applyingSet = false;
        report(embed.handle.getState(), errors);
      });
    }
  });

  embed.limits = limits;
})();

// embed.html: one panel, its state from the address. `?panel=phases&prompt_tokens=32768` (or the
// same after `#`; a field in the hash wins over the same field in the query) picks the panel and
// sets any scenario field by the CLI's names. A bad parameter is listed by name with what is
// allowed, and every other parameter still applies. As the reader changes the panel, the hash is
// rewritten with every field that differs from the defaults and every field the query names, so
// the address, copied at any moment, opens the same state.
// Two parameters are not scenario fields:
//   host=ORIGIN  the origins allowed to drive the panel (below)
//   height=PX    the frame is that tall and nothing resizes it (no kvembed-host.js on the page):
//                the page fills exactly that height and the panel scrolls inside it. Dropped as
//                soon as a host script speaks, because that script sizes the frame to fit.
//   exercises=SET  below the panel, the lesson's exercises whose id is SET or starts with SET-
//                (gqa shows gqa-mha and gqa-fp8); a figure in them loads its scenario into the panel.
//
// A course page drives the panel through postMessage (site/js/kvembed-host.js does this):
//   in:  {kv: 'watch', fields: [[field, format]]}  which formatted values the host wants
//        {kv: 'set', state: {...}}                 set the named fields; the rest stay
//        {kv: 'scenario', state: {...}}            a whole scenario: every field not named takes
//                                                  the default
//        {kv: 'reset'}                             back to the state the address gave
//        (sets that arrive before the panel is mounted are queued and applied in order)
//   out: {kv: 'hello'}                             the page has started (and listens)
//        {kv: 'height', height}                    the page's content height in CSS px, on change
//        {kv: 'ready', kind, state, errors, fields, formats}  the panel is mounted
//        {kv: 'failed', message}                   the panel could not start (no WebGL2, a module blocked)
//        {kv: 'change', state, values, errors, unbound}
//            after every change (one per set); state is the full scenario; values[field + '|' +
//            format] the watched values; errors the panel's current messages (a set without
//            errors clears them); unbound the watched pairs it cannot show: [{field, format,
//            code: 'unknown_field' | 'unknown_format' | 'no_value' (a serving run that did not
//            start: its simulation.* fields), message}]
// Messages go to any framing origin by default: the panel's data is public. A course site that
// wants them kept to itself lists its origins: `?host=https://course.example.edu` (repeat the
// parameter or separate origins with commas); the panel then posts only there and ignores
// messages from any other origin. Each is read as an origin (a trailing slash or capitals do not
// matter); one that is not (a bare host name, "null", a path) is named on the panel, and a list
// whose every entry is wrong keeps the panel to itself rather than open to all. Only the query
// sets hosts: a host in the hash is named and ignored, so a link cannot widen the list.
// window.KvEmbed exposes the handle and the messages for tests.
(function () {
  'use strict';

  document.documentElement.classList.add('kv-js');
  var main = document.querySelector('.kv-embed__main');
  var list = main.querySelector('.kv-embed__messages');
  var canvas = main.querySelector('canvas');
  var status = main.querySelector('.kv-panel__status');
  var defaults = JSON.parse(main.getAttribute('data-defaults') || '{}');
  var panelDefaults = defaults;   // the mounted panel's whole default state (a serving panel adds its workload's)
  var limits = JSON.parse(main.getAttribute('data-limits') || '{}');
  var inputLimits = JSON.parse(main.getAttribute('data-input-limits') || '{}');   // core/io/input_text.hpp's
  var formats = JSON.parse(main.getAttribute('data-formats') || '[]');
  var knownFields = KvState.fieldNames().filter(function (name) { return name in defaults; });  // the scenario's, in its table's order
  var embed = window.KvEmbed = { handle: null, messages: [], kind: null, hosts: [], limits: limits, height: null };
  var framed = !!window.parent && window.parent !== window;
  var watched = [];
  var watchCut = [];       // the note that a watch named too many fields, sent with every report
  // A scenario has about thirty fields and a host page watches a handful: more than this in one
  // message is a mistake or an attack, refused (sets) or cut (watches) with the count said.
  var MAX_FIELDS = 256;
  var MAX_UNBOUND = 20;    // unbound watches named in a report; the rest are counted
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

  // ---- The address ------------------------------------------------------------------------------

  var messages = [];
  var hosts = [];
  var hostListed = false;  // the query named hosts (even if none of them was an origin)
  var named = [];          // the scenario fields the query names: the hash repeats them
  var exerciseSets = [];
  // "https://Course.example.edu/" as the browser writes an origin, or null for anything that is not one.
  function originOf(text) {
    var url;
    try { url = new URL(text); } catch (e) { return null; }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash ||
        url.username || url.password) return null;
    return url.origin;
  }
  function scenarioFields(parsed, fromQuery) {
    return parsed.fields.filter(function (pair) {
      if (pair[0] === 'host') {
        if (!fromQuery) {
          messages.push({ field: 'host', message: 'host is read from the address\u2019s query only; the one after # is ignored.' });
          return false;
        }
        hostListed = true;
        pair[1].split(',').forEach(function (text) {
          if (!text.trim()) return;
          var origin = originOf(text.trim());
          if (origin) { if (hosts.indexOf(origin) < 0) hosts.push(origin); }
          else messages.push({ field: 'host', message: 'host "' + text.trim().slice(0, 80) + '" is not an origin; write the scheme and ' +
            'the host, as in https://course.example.edu. Messages go only to the hosts that are.' });
        });
        return false;
      }
      if (pair[0] === 'height') {
        var px = Number(pair[1]);
        if (pair[1] !== '' && px >= 100 && px <= 20000) embed.height = Math.round(px);
        else messages.push({ field: 'height', message: 'height "' + pair[1] + '" is not a height; use CSS pixels from 100 to 20000.' });
        return false;
      }
      if (pair[0] === 'exercises') {
        exerciseSets.push(pair[1]);
        return false;
      }
      if (fromQuery && named.indexOf(pair[0]) < 0) named.push(pair[0]);
      return true;
    });
  }
  var query = KvState.parse(location.search);
  var hash = KvState.parse(location.hash);
  var fields = scenarioFields(query, true).concat(scenarioFields(hash, false));
  var requested = hash.panel || query.panel;
  var kind = requested || 'admission';
  if (KvState.PANELS.indexOf(kind) < 0) {
    messages.push({ field: 'panel', message: 'panel "' + requested + '" is not a panel; use ' +
      KvState.PANELS.join(', ') + '. Showing admission.' });
    kind = 'admission';
  }
  embed.kind = kind;
  showExercises(exerciseSets);
  embed.hosts = hosts;
  var addressState = null;  // the state the address gave, for {kv: 'reset'}

  // ---- Exercises --------------------------------------------------------------------------------

  // The generator bakes every exercise into the page, hidden; the address picks which ones show.
  function showExercises(sets) {
    var box = main.querySelector('.kv-embed__exercises');
    if (!box || !sets.length) return;
    var all = Array.prototype.slice.call(box.querySelectorAll('.kv-exercise'));
    var ids = all.map(function (el) { return el.getAttribute('data-exercise'); });
    sets.forEach(function (set) {
      var found = ids.some(function (id) { return id === set || id.indexOf(set + '-') === 0; });
      if (!found) {
        var known = ids.map(function (id) { return id.split('-')[0]; }).filter(function (s, i, a) { return a.indexOf(s) === i; });
        messages.push({ field: 'exercises', message: 'exercises "' + set + '" names no exercise; use ' + known.join(', ') + ' or an exercise id.' });
      }
    });
    all.forEach(function (el) {
      var id = el.getAttribute('data-exercise');
      if (!sets.some(function (set) { return id === set || id.indexOf(set + '-') === 0; })) el.remove();
    });
    box.hidden = !box.querySelector('.kv-exercise');
    // A figure in an exercise shows its scenario in the panel above, rather than a lesson's panel.
    box.addEventListener('click', function (event) {
      var a = event.target.closest && event.target.closest('a.kv-fig[data-scenario-name]');
      if (!a) return;
      event.preventDefault();
      var scenarios = JSON.parse(main.getAttribute('data-scenarios') || '{}');
      if (!embed.handle) return;
      // Whole from the panel's defaults, and only its fields (a serving workload is no admission field).
      var state = Object.assign({}, panelDefaults, scenarios[a.getAttribute('data-scenario-name')]);
      Object.keys(state).forEach(function (k) { if (!(k in panelDefaults)) delete state[k]; });
      var reply = embed.handle.setState(state);
      showMessages(reply && reply.error ? [reply.error] : []);
    });
  }

  // ---- Height -----------------------------------------------------------------------------------

  // A fixed height (?height=) until a host script speaks; then the content's own height, reported.
  function fixHeight(px) {
    document.documentElement.classList.toggle('kv-embed--fixed', px !== null);
    main.style.height = px === null ? '' : px + 'px';
  }
  fixHeight(embed.height);

  var lastHeight = 0;
  function postHeight() {
    var height = Math.ceil(main.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    post({ kv: 'height', height: height });
  }

  // ---- Messages to the host ---------------------------------------------------------------------

  function post(message) {
    if (!framed) return;
    if (!hostListed) window.parent.postMessage(message, '*');
    else hosts.forEach(function (origin) { window.parent.postMessage(message, origin); });
  }

  // Formats values for the host page with core/base/format.hpp (through the module's formatValue).
  function formatter() {
    if (window.KvPanels && KvPanels.format) return Promise.resolve(KvPanels.format);
    if (!formatModule) formatModule = window.createKvModule().then(function (m) { return m.formatValue; });
    return formatModule;
  }

  // A dotted path's {value} in the result ({} where it has none), or {empty}: the first group on the
  // way that is null now ('simulation' while the serving panel has no run).
  function lookup(result, path) {
    var parts = path.split('.'), o = result;
    for (var i = 0; i < parts.length; i++) {
      if (o === null && i > 0) return { empty: parts.slice(0, i).join('.') };
      if (o === null || typeof o !== 'object' || !Object.prototype.hasOwnProperty.call(o, parts[i])) return {};
      o = o[parts[i]];
    }
    return { value: o };
  }

  var applyingSet = false;  // a host's set is being applied: its own report follows

  function report() {
    if (!framed || !embed.handle) return;
    var state = embed.handle.getState();
    var result = embed.handle.result();
    var errors = embed.messages;
    formatter().then(function (format) {
      var values = {}, unbound = watchCut.slice();
      watched.forEach(function (w) {
        var field = w[0], name = w[1], found = lookup(result, field), v = found.value, group = found.empty;
        if (formats.length && formats.indexOf(name) < 0) {
          unbound.push({ field: field, format: name, code: 'unknown_format', message: 'data-kv-format "' + name +
            '" is not a format; use ' + formats.join(', ') + '.' });
        } else if (group) {
          // A group with no value now (the serving panel's run: refused, or its first still under
          // way) is not a typo: the author's text stays, and a refused run says why.
          var why = group === 'simulation' && result.simulation_error;
          if (why) unbound.push({ field: field, format: name, code: 'no_value', message: 'data-kv-field "' + field +
            '" has no value: the serving run did not start (' + why.message + ').' });
        } else if (v === undefined) {
          unbound.push({ field: field, format: name, code: 'unknown_field', message: 'data-kv-field "' + field +
            '" is not a result field; use ' + Object.keys(result).join(', ') + ' (dotted paths reach inside groups).' });
        } else if (v !== null && typeof v === 'object') {
          unbound.push({ field: field, format: name, code: 'unknown_field', message: 'data-kv-field "' + field +
            '" is a group of fields; name one of ' + Object.keys(v).map(function (k) { return field + '.' + k; }).join(', ') + '.' });
        } else {
          values[field + '|' + name] = typeof v === 'number' && name !== 'text' ? format(v, name) : v === null ? '' : String(v);
        }
      });
      if (unbound.length > MAX_UNBOUND) {
        var more = unbound.length - MAX_UNBOUND;
        unbound = unbound.slice(0, MAX_UNBOUND).concat([{ field: '', format: '', code: 'more',
          message: 'and ' + more + ' more watched fields that cannot be shown.' }]);
      }
      post({ kv: 'change', state: state, values: values, errors: errors, unbound: unbound });
    });
  }

  // ---- Messages from the host -------------------------------------------------------------------

  function pairsOf(state) {
    return Object.keys(state).map(function (k) {
      var v = state[k];
      return [k, typeof v === 'string' ? v : JSON.stringify(v)];
    });
  }

  function isFields(v) { return !!v && typeof v === 'object' && !Array.isArray(v); }

  // The first value of a host's state that JSON would carry wrongly (Infinity, too deep), as the
  // errors list; else null. What JSON.stringify refuses outright (a BigInt, a cycle) is left to
  // apply's catch, which names the whole state.
  function unsendable(state) {
    try { JSON.stringify(state); } catch (e) { return null; }
    for (var k in state) {
      var bad = Object.prototype.hasOwnProperty.call(state, k) && KvState.notPlainJson(state[k], k, inputLimits.json_depth);
      if (bad) return [bad];
    }
    return null;
  }

  // One host message, applied; whatever it holds, the panel answers and goes on reporting.
  function apply(data) {
    var errors;
    try {
      errors = applyOrName(data);
    } catch (e) {   // a BigInt or a cycle (JSON.stringify refuses both), or anything else unforeseen
      errors = [{ field: 'state', code: 'malformed_json', message: 'a ' + data.kv + ' holds plain JSON values only (' +
        String(e && e.message || e).slice(0, 120) + ').' }];
    }
    showMessages(errors);   // a set without errors clears the earlier ones
    queueMicrotask(function () {
      applyingSet = false;
      report();
    });
  }

  function applyOrName(data) {
    var handle = embed.handle;
    var fields = isFields(data.state) && Object.keys(data.state).length <= MAX_FIELDS;
    var errors, unsent = fields ? unsendable(data.state) : null;   // walked once, and only when it may be read
    if ((data.kv === 'set' || data.kv === 'scenario') && !isFields(data.state)) {
      errors = [{ field: 'state', code: 'malformed_json', message: 'a ' + data.kv + ' needs a JSON object of scenario fields.' }];
    } else if (data.state && Object.keys(data.state).length > MAX_FIELDS) {
      errors = [{ field: 'state', code: 'out_of_range', message: 'a ' + data.kv + ' names ' + Object.keys(data.state).length +
        ' fields; at most ' + MAX_FIELDS + ' are read.' }];
    } else if (unsent) {
      errors = unsent;   // named before anything is set: 1e400 arrives as Infinity
    } else {
      // One 'change' for the whole set, with its errors: the panel's own change notices arrive in
      // microtasks queued by setState, so the report waits behind them.
      applyingSet = true;
      if (data.kv === 'set') {
        errors = KvState.applyFields(handle, pairsOf(data.state), knownFields);
      } else {
        var whole = data.kv === 'reset' ? addressState : Object.assign({}, panelDefaults);
        if (data.kv === 'scenario') Object.keys(data.state).forEach(function (k) { whole[k] = KvState.coerce(k, typeof data.state[k] === 'string' ? data.state[k] : JSON.stringify(data.state[k])); });
        var reply = handle.setState(whole);
        errors = [];
        if (reply && reply.error) {
          // Name each field that is refused; the rest of the scenario still applies.
          handle.setState(panelDefaults);
          errors = KvState.applyFields(handle, pairsOf(data.state || {}), knownFields);
        }
      }
    }
    return errors;
  }

  // Host messages, coalesced: consecutive sets merge (a field's latest value wins), a scenario or a
  // reset replaces what came before it, and what is queued is applied at most once a frame, so
  // ten thousand sets in a burst cost one. Before the panel mounts they wait in the same queue.
  var queued = [];
  var flushTimer = null;
  function enqueue(data) {
    var last = queued[queued.length - 1];
    var small = isFields(data.state) && Object.keys(data.state).length <= MAX_FIELDS;
    if (data.kv !== 'set') queued = [data];
    else if (small && last && last.kv === 'set' && last.merged) Object.assign(last.state, data.state);
    else queued.push(small ? { kv: 'set', state: Object.assign({}, data.state), merged: true } : data);
    if (embed.handle && flushTimer === null) flushTimer = setTimeout(flush, 16);
  }
  function flush() {
    flushTimer = null;
    queued.splice(0).forEach(apply);
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || !event.data || typeof event.data.kv !== 'string') return;
    if (hostListed && hosts.indexOf(event.origin) < 0) return;  // not one of the listed hosts
    var data = event.data;
    if (data.kv === 'watch') {
      var asked = Array.isArray(data.fields) ? data.fields : [];
      watchCut = asked.length > MAX_FIELDS ? [{ field: '', format: '', code: 'out_of_range',
        message: 'watch names ' + asked.length + ' fields; the first ' + MAX_FIELDS + ' are watched.' }] : [];
      watched = asked.slice(0, MAX_FIELDS).filter(function (w) {
        return Array.isArray(w) && w.length === 2 && typeof w[0] === 'string' && typeof w[1] === 'string';
      });
      // A host script is here: it sizes the frame, so the page takes its content's height.
      if (embed.height !== null) { embed.height = null; fixHeight(null); }
      lastHeight = 0;
      postHeight();
      report();
    } else if (data.kv === 'set' || data.kv === 'scenario' || data.kv === 'reset') {
      enqueue(data);
    }
  });
  post({ kv: 'hello' });
  if (framed && window.ResizeObserver) new ResizeObserver(postHeight).observe(main);
  postHeight();

  // ---- The panel --------------------------------------------------------------------------------

  if (!window.KvPanels) {
    status.textContent = 'The panel script (js/kvpanels.js) did not load.';
    post({ kv: 'failed', message: status.textContent });
    return;
  }
  status.textContent = 'Loading the panel…';
  KvPanels.mount(canvas, { panel: kind, state: defaults, moduleUrl: main.getAttribute('data-module') })
    .then(function (handle) {
      embed.handle = handle;
      panelDefaults = handle.getState();   // the defaults, with a serving panel's workload
      main.classList.add('is-mounted');
      messages = messages.concat(KvState.applyFields(handle, fields, knownFields));
      addressState = handle.getState();
      showMessages(messages);
      handle.onChange(function (state) {
        try { history.replaceState(null, '', '#' + KvState.toQuery(kind, state, defaults, named)); } catch (e) { /* file://, sandbox */ }
        if (!applyingSet) report();
      });
      post({ kv: 'ready', kind: kind, state: handle.getState(), errors: embed.messages, fields: knownFields, formats: formats });
      flush();
      report();
    }, function (error) {
      status.textContent = 'The panel could not start: ' + error.message;
      main.classList.add('is-failed');
      post({ kv: 'failed', message: status.textContent });
    });
})();

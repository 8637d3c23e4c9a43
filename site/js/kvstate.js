// KvState: panel state <-> URL parameters, shared by the lesson page (lesson.js), the embed page
// (embed.js) and nothing else. A classic script defining one global (file:// forbids modules).
//
//   KvState.parse(queryOrHash)        -> {panel, fields: [[name, rawText], ...], groups} in URL order;
//                                        groups: [{panel, fields}], one per `panel=` (the lesson's
//                                        hash holds one group per panel the reader changed)
//   KvState.coerce(name, rawText)     -> the JSON value the core expects (numbers, booleans, text,
//                                        objects for model_config and gpu_config, null for "engine
//                                        default"); text that does not parse is passed on for the
//                                        core to reject, naming the field
//   KvState.toQuery(kind, state, defaults, keep) -> "panel=<kind>&field=value..." with the fields
//                                        that differ from the defaults, in alphabetical order (the site
//                                        generator's embed_query writes the same string), plus any
//                                        field named in `keep` even at its default ("null" for unset),
//                                        so a hash written over a query restores the state exactly
//   KvState.applyFields(handle, fields) -> [{field, message}] one per rejected field. All fields are
//                                        tried at once first (so their order never matters); when
//                                        that is refused, one by one: the accepted ones stay set,
//                                        so one bad value never blanks the panel
//   KvState.notPlainJson(value, name, maxDepth) -> null, or {field, code, message} for the first
//                                        number JSON cannot carry (1e400 is Infinity here, which
//                                        JSON.stringify would turn into null) or nesting deeper than
//                                        maxDepth; walked with a stack, not recursion
//   KvState.sameScenario(a, b)        -> true when every non-null field of a equals b's (a null
//                                        model_config or gpu_config must be null in b too: the
//                                        catalog's model is not the reader's config.json)
var KvState = (function () {
  'use strict';

  var PANELS = ['admission', 'phases', 'batching', 'serving'];
  // Field kinds come from the core's field tables, baked into the page as data-fields
  // ([name, type, nullable] rows; KvState.useFields): numbers, booleans, JSON objects, and the
  // fields whose null means the engine's default.
  var NUMERIC = [], NULLABLE = [], BOOLEAN = [], OBJECT = [], NAMES = [];
  function useFields(rows) {
    NUMERIC = []; NULLABLE = []; BOOLEAN = []; OBJECT = []; NAMES = [];
    (rows || []).forEach(function (row) {
      var name = row[0], type = row[1];
      NAMES.push(name);
      if (type === 'integer' || type === 'number') NUMERIC.push(name);
      if (type === 'boolean') BOOLEAN.push(name);
      if (type === 'object') OBJECT.push(name);
      else if (row[2]) NULLABLE.push(name);
    });
  }
  // The page that loads this script names its fields on an element with data-fields.
  var holder = typeof document !== 'undefined' && document.querySelector('[data-fields]');
  if (holder) useFields(JSON.parse(holder.getAttribute('data-fields') || '[]'));

  function decode(text) {
    try { return decodeURIComponent(text.replace(/\+/g, ' ')); } catch (e) { return text; }
  }

  function parse(text) {
    var out = { panel: null, fields: [], groups: [] };
    text = (text || '').replace(/^[?#]/, '');
    if (!text) return out;
    var group = null;
    text.split('&').forEach(function (pair) {
      if (!pair) return;
      var eq = pair.indexOf('=');
      var name = decode(eq < 0 ? pair : pair.slice(0, eq));
      var value = eq < 0 ? '' : decode(pair.slice(eq + 1));
      if (name === 'panel') {
        out.panel = value;
        out.groups.push(group = { panel: value, fields: [] });
        return;
      }
      out.fields.push([name, value]);
      if (!group) out.groups.push(group = { panel: null, fields: [] });
      group.fields.push([name, value]);
    });
    return out;
  }

  function coerce(name, raw) {
    if (NUMERIC.indexOf(name) >= 0) {
      if (NULLABLE.indexOf(name) >= 0 && (raw === '' || raw === 'null' || raw === 'auto' || raw === 'default')) return null;
      return /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw) ? Number(raw) : raw;
    }
    if (BOOLEAN.indexOf(name) >= 0) {
      if (raw === 'true' || raw === '1' || raw === '') return true;
      if (raw === 'false' || raw === '0') return false;
      return raw;
    }
    if (OBJECT.indexOf(name) >= 0) {
      if (raw === '' || raw === 'null') return null;
      try { return JSON.parse(raw); } catch (e) { return raw; }
    }
    return raw;
  }

  // As the generator's percent-encoding: letters, digits and -_.~ stay, everything else is %XX.
  function encode(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }

  function urlValue(v) {
    if (typeof v === 'string') return encode(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    return encode(JSON.stringify(v));
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  function toQuery(kind, state, defaults, keep) {
    var query = 'panel=' + encode(kind);
    Object.keys(state).sort().forEach(function (key) {
      var v = state[key];
      var kept = keep && keep.indexOf(key) >= 0;
      if (v === null || v === undefined) {
        if (kept) query += '&' + key + '=null';
        return;
      }
      if (!kept && defaults && Object.prototype.hasOwnProperty.call(defaults, key) && same(defaults[key], v)) return;
      query += '&' + key + '=' + urlValue(v);
    });
    return query;
  }

  function applyFields(handle, fields, knownFields) {
    var errors = [];
    var all = Object.create(null);
    fields.forEach(function (pair) { all[pair[0]] = coerce(pair[0], pair[1]); });
    if (fields.length > 1) {
      var whole = handle.setState(all);
      if (whole && !whole.error) return errors;
    }
    fields.forEach(function (pair) {
      // No prototype, so "__proto__" is an ordinary key the core can reject by name.
      var name = pair[0], raw = pair[1], change = Object.create(null);
      change[name] = coerce(name, raw);
      var reply = handle.setState(change);
      if (reply && reply.error) {
        var message = reply.error.message;
        if (reply.error.code === 'unknown_field' && knownFields)
          message += '; the fields are ' + knownFields.join(', ');
        errors.push({ field: reply.error.field || name, code: reply.error.code, message: message });
      }
    });
    return errors;
  }

  function sameScenario(a, b) {
    if (!a || !b) return false;
    return Object.keys(a).every(function (key) {
      if (OBJECT.indexOf(key) >= 0) return same(a[key] === undefined ? null : a[key], b[key] === undefined ? null : b[key]);
      return a[key] === null || a[key] === undefined || same(a[key], b[key]);
    });
  }

  function notPlainJson(value, name, maxDepth) {
    var stack = [[value, name, 0]];
    while (stack.length) {
      var top = stack.pop(), v = top[0], where = top[1], depth = top[2];
      if (typeof v === 'number' && !isFinite(v))
        return { field: where, code: 'out_of_range', message: where + ' is too large for a number (beyond 1.8e308)' };
      if (v === null || typeof v !== 'object') continue;
      if (depth >= maxDepth)
        return { field: name, code: 'out_of_range', message: name + ' nests objects or arrays more than ' + maxDepth + ' deep' };
      Object.keys(v).forEach(function (k) { stack.push([v[k], Array.isArray(v) ? where + '[' + k + ']' : where + '.' + k, depth + 1]); });
    }
    return null;
  }

  return { PANELS: PANELS, parse: parse, coerce: coerce, toQuery: toQuery, applyFields: applyFields, notPlainJson: notPlainJson,
    sameScenario: sameScenario, useFields: useFields, fieldNames: function () { return NAMES.slice(); } };
})();

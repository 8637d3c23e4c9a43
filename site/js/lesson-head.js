// KvPanelHead: the header above each of the lesson's panels (HTML, above the canvas), for
// lesson.js. It names the scenario the panel shows, in words ("Qwen3-32B on H100 \u00b7
// 32,768-token prompts": model, GPU, then what differs from the lesson's starting point), tagged as
// the text's or the reader's own; lists the figures the panel's reading section quotes, as the panel
// computes them now (each marked when it matches the text); and shows the note of what changed.
//   KvPanelHead.show(panel, state, result, onText, base)  fills the header of lesson.js's panel record
//   KvPanelHead.describe(state, result, base)             -> the scenario in words
//   KvPanelHead.differences(before, after)                -> [what changed, in words]
//   KvPanelHead.say(panel, text)                          the visible note, fading in
//   KvPanelHead.problem(panel, text)                      the note, as what the mounted panel refused
//   KvPanelHead.valueAt(result, 'decode.flops')           -> a result field by its dotted path (lesson-knobs.js too)
// Numbers are formatted by the core (KvPanels.format) once the module is loaded.
var KvPanelHead = (function () {
  'use strict';

  function fmt(value, format) {
    if (value === null || value === undefined) return 'engine default';
    if (typeof value !== 'number') return String(value);
    if (window.KvPanels) try { return KvPanels.format(value, format); } catch (e) { /* not loaded yet */ }
    // Grouped by hand: a page's first toLocaleString loads the locale's data, a task of 225 ms
    // with the CPU slowed 4x, as Lighthouse's phone is (measured in Chromium).
    return Number.isInteger(value) ? String(value).replace(/\B(?=(\d{3})+$)/g, ',') : String(value);
  }

  // One scenario field in words, as the header and the note name it.
  function describeField(key, v) {
    switch (key) {
    case 'model': return v;
    case 'gpu': return 'on ' + v;
    case 'prompt_tokens': return fmt(v, 'count') + '-token prompts';
    case 'output_tokens': return fmt(v, 'count') + ' output tokens';
    case 'concurrent_requests': return fmt(v, 'count') + ' requests at once';
    case 'kv_cache_dtype': return String(v).toUpperCase() + ' KV cache';
    case 'weight_dtype': return String(v).toUpperCase() + ' weights';
    case 'force_mha': return v ? 'multi-head attention forced' : 'grouped-query attention';
    case 'gpu_memory_utilization': return 'gpu_memory_utilization ' + fmt(v, 'fixed2');
    case 'kv_cache_memory_bytes': return v === null ? 'pool sized by the utilisation' : fmt(v / 1073741824, 'fixed2') + ' GiB KV pool per GPU';
    case 'tensor_parallel_size': return 'tensor parallel over ' + fmt(v, 'count');
    case 'pipeline_parallel_size': return 'pipeline parallel over ' + fmt(v, 'count');
    case 'data_parallel_size': return fmt(v, 'count') + ' data-parallel engines';
    case 'enable_expert_parallel': return v ? 'experts dealt out whole (expert parallel)' : 'experts sliced over the GPUs';
    case 'vllm_version': return 'vLLM ' + v;
    case 'entry': return v === 'offline' ? 'offline engine' : 'vllm serve';
    case 'enforce_eager': return v ? 'eager (no CUDA graphs)' : 'CUDA graphs';
    case 'disable_custom_all_reduce': return v ? 'all-reduces on NCCL' : "vLLM's own all-reduce";
    case 'model_config': return v ? 'your config.json' : 'the catalog model';
    case 'gpu_config': return v ? 'your GPU' : 'the catalog GPU';
    case 'workload': return v + ' workload';
    case 'rate_per_s': return fmt(v, 'sig2') + ' requests a second';
    case 'requests': return fmt(v, 'count') + ' requests in all';
    case 'shared_prefix_tokens': return fmt(v, 'count') + '-token shared prompt';
    case 'prefix_caching': return v ? 'prefix caching on' : 'prefix caching off';
    case 'gpu_hour_price': return v ? 'priced at ' + fmt(v, 'sig3') + ' a GPU-hour' : 'no price';
    default: return key + ' ' + (typeof v === 'object' && v !== null ? JSON.stringify(v) : fmt(v, 'count'));
    }
  }

  var same = function (a, b) { return JSON.stringify(a) === JSON.stringify(b); };

  // The order the header names fields in: what a request is, then the engine, then the rest.
  var ORDER = ['model', 'gpu', 'model_config', 'gpu_config', 'workload', 'rate_per_s', 'requests', 'prompt_tokens',
    'output_tokens', 'shared_prefix_tokens', 'prefix_caching', 'concurrent_requests', 'force_mha', 'weight_dtype',
    'kv_cache_dtype', 'tensor_parallel_size'];
  function byOrder(a, b) {
    var i = ORDER.indexOf(a), j = ORDER.indexOf(b);
    return (i < 0 ? ORDER.length : i) - (j < 0 ? ORDER.length : j) || (a < b ? -1 : a > b ? 1 : 0);
  }
  // A workload's own defaults (no shared prompt, prefix caching on, as vLLM) go unsaid.
  function unsaid(key, v) {
    return key === 'seed' || (key === 'shared_prefix_tokens' && !v) || (key === 'prefix_caching' && v === true) ||
      (key === 'gpu_hour_price' && !v);
  }

  function differences(before, after) {
    return Object.keys(after).filter(function (k) { return !same(before[k], after[k]); }).sort(byOrder)
      .map(function (k) { return describeField(k, after[k]); });
  }

  // "Qwen3-32B on H100 · 32,768-token prompts": model, GPU, then what differs from the lesson's
  // starting point.
  function describe(state, result, base) {
    var model = state.model_config && result && result.model ? result.model.name : state.model;
    var gpu = state.gpu_config && result && result.gpu ? result.gpu.label : state.gpu;
    var parts = [model + ' on ' + gpu];
    Object.keys(state).sort(byOrder).forEach(function (k) {
      if (k === 'model' || k === 'gpu' || unsaid(k, state[k]) || same(base[k] === undefined ? null : base[k], state[k])) return;
      if ((k === 'model_config' || k === 'gpu_config') && state[k]) return;   // named above
      parts.push(describeField(k, state[k]));
    });
    return parts.join(' \u00b7 ');
  }

  function valueAt(object, path) {
    return path.split('.').reduce(function (o, k) { return o === undefined || o === null ? undefined : o[k]; }, object);
  }

  var WORDS = { ttft: 'TTFT', itl: 'ITL', tpot: 'TPOT', e2e: 'end-to-end', kv: 'KV', gpu: 'GPU', gpus: 'GPUs', p50: 'median' };
  function label(path) {
    return path.replace(/^(scenario|simulation)\./, '').replace(/_per_s$/, ' per second').replace(/_(s|bytes)(?=\.|$)/g, '')
      .split(/[._]/).map(function (word) { return WORDS[word] || word; }).join(' ');
  }

  // The figures the section quotes from its own scenario, one result field each, as the panel
  // computes them now (the core's formats); each marked when it matches the text.
  function quotedFigures(panel, result) {
    var section = panel.section, out = [], seen = Object.create(null);
    if (!section || !result) return out;
    var prefix = section.scenario + '.';
    section.elements.forEach(function (el) {
      Array.prototype.forEach.call(el.querySelectorAll('a.kv-fig'), function (a) {
        var expr = a.getAttribute('data-expr'), format = a.getAttribute('data-format');
        if (expr.indexOf(prefix) !== 0 || !/^[A-Za-z0-9_.]+$/.test(expr.slice(prefix.length))) return;
        var path = expr.slice(prefix.length);
        // Inputs and shapes are in the header line already; log lines are long and shown in the panel.
        if (/^(log|scenario|workload|gpu|model)\./.test(path) || seen[path + '|' + format]) return;
        seen[path + '|' + format] = true;
        var value = valueAt(result, path);
        if (value === undefined) return;
        var text = format === 'text' ? String(value) : fmt(value, format);
        out.push({ figure: a, field: path, format: format, text: text, matches: text === a.textContent });
      });
    });
    return out;
  }

  // Fills the panel's header: whose scenario it shows (the text's or the reader's) in words, the
  // way back while it is the reader's, and the figures the section quotes as the panel computes them.
  function show(panel, state, result, onText, base) {
    panel.scenarioLine.textContent = '';
    var tag = panel.scenarioLine.appendChild(document.createElement('span'));
    tag.className = 'kv-panel__tag';
    tag.textContent = onText ? 'The text\u2019s scenario' : 'Your scenario';
    panel.scenarioLine.appendChild(document.createTextNode(' ' + describe(state, result, base)));
    panel.figure.classList.toggle('is-own', !onText);
    if (panel.back) panel.back.hidden = onText || !panel.handle;
    if (!onText && panel.note && /^Now: /.test(panel.note.textContent)) panel.note.textContent = '';
    panel.quoted.textContent = '';
    quotedFigures(panel, result).forEach(function (q) {
      var li = panel.quoted.appendChild(document.createElement('li'));
      li.className = q.matches ? 'is-match' : 'is-other';
      li.setAttribute('data-field', q.field);
      li.setAttribute('data-format', q.format);
      var name = li.appendChild(document.createElement('span'));
      name.className = 'kv-panel__quoted-name';
      name.textContent = label(q.field);
      var value = li.appendChild(document.createElement('span'));
      value.className = 'kv-panel__quoted-value';
      value.textContent = q.text;
    });
    panel.quoted.hidden = !panel.quoted.firstChild;
  }

  // The visible note of what changed; it fades in unless the reader prefers reduced motion (CSS).
  // The class returns two frames later, which starts the animation again without making the browser
  // lay the page out inside this script, as reading offsetWidth did (a phone-sized read of the
  // lesson: 12-13 layouts inside scripts before, 5-6 after).
  function say(panel, text) {
    var note = panel.note;
    if (!note) return;
    note.textContent = text;
    note.classList.remove('is-fresh', 'is-problem');   // two notes within two frames fade in once, with the later text
    requestAnimationFrame(function () {
      requestAnimationFrame(function () { note.classList.add('is-fresh'); });
    });
  }

  // A refusal (a bad address field, a state the panel would not take) on a panel that goes on
  // drawing: said in its header, where the reader looks, after the change notices that the accepted
  // part of the same set queued (they clear the note, as the reader's changes do).
  function problem(panel, text) {
    queueMicrotask(function () {
      say(panel, text);
      if (panel.note) panel.note.classList.add('is-problem');
    });
  }

  return { show: show, describe: describe, differences: differences, say: say, problem: problem, valueAt: valueAt };
})();

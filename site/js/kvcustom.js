// The lesson page's "Your own model or GPU" form (templates/index.html): a Hugging Face config.json,
// pasted, dropped or chosen as a file, or a GPU described by its data-sheet figures, goes to every
// panel as model_config or gpu_config through KvLesson.useOwn (lesson.js), which has the core check
// it first: a rejection shows the core's message, which names the field, marks that control, and
// changes no panel. The reset buttons send null (the catalog's model or GPU again) or put every panel
// back on its chapter's scenario (KvLesson.backToLesson). A vLLM start-up log (kvcustom-log.js) and a
// load to plan the flags for (kvcustom-plan.js) are the form's other parts. Nothing here computes a
// figure: the core's numbers print through KvPanels.format. Defines KvCustom, what the parts share
// (forms, messages, files, numbers), or null without lesson.js and kvpanels.js: the form then stays
// hidden (it is `hidden` in the HTML, so the page without JavaScript shows no dead form).
var KvCustom = (function () {
  'use strict';

  var root = document.querySelector('.kv-custom');
  if (!root || !window.KvLesson || !window.KvPanels || !KvLesson.useOwn) return null;
  root.hidden = false;

  var modelForm = root.querySelector('#kv-own-model');
  var gpuForm = root.querySelector('#kv-own-gpu');
  var logForm = root.querySelector('#kv-own-log');
  var planForm = root.querySelector('#kv-own-plan');
  var config = modelForm.querySelector('textarea');
  var logText = logForm.querySelector('textarea');
  var GPU_NUMBERS = ['memory_gib', 'hbm_tb_per_s', 'bf16_dense_tflops', 'fp8_dense_tflops', 'interconnect_gb_per_s'];

  // What JSON.parse accepts but cannot be sent on as it was written: a number beyond a double
  // (1e400 parses to Infinity, which JSON.stringify turns into null, so the core would call the
  // field missing) and nesting deeper than the core reads (data-input-limits, from the core). Walked
  // with a stack, not recursion.
  var limits = JSON.parse(document.getElementById('lesson').getAttribute('data-input-limits') || '{}');
  function notPlainJson(value, name) { return KvState.notPlainJson(value, name, limits.json_depth); }

  // ---- Messages ---------------------------------------------------------------------------------

  function messageOf(form) { return form.querySelector('.kv-custom__message'); }

  function clearInvalid(form) {
    Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid]'), function (el) {
      el.removeAttribute('aria-invalid');
    });
  }

  // text: a string, or a list of strings and {items: [...]} for a list under the first line.
  function say(form, kind, lines, field) {
    var out = messageOf(form);
    out.textContent = '';
    out.classList.toggle('is-error', kind === 'error');
    out.classList.toggle('is-ok', kind === 'ok');
    if (field) out.setAttribute('data-field', field);
    else out.removeAttribute('data-field');
    (Array.isArray(lines) ? lines : [lines]).forEach(function (line) {
      if (line && line.items) {
        var list = document.createElement('ul');
        line.items.forEach(function (text) {
          var item = document.createElement('li');
          item.textContent = text;
          list.appendChild(item);
        });
        out.appendChild(list);
      } else if (line) {
        var span = document.createElement('span');
        span.textContent = line;
        out.appendChild(span);
      }
    });
  }

  // The control a core error names: "model_config.num_attention_heads" is the config text,
  // "gpu_config.hbm_tb_per_s" that input; for a log, "model" and "gpu" are those boxes and anything
  // else (the log itself, a flag it states) is the log's text; for a plan, the box of that name
  // (the objectives' boxes take milliseconds where the core's fields are itl_s and ttft_s).
  var PLAN_CONTROLS = { itl_s: 'itl_ms', ttft_s: 'ttft_ms', tpot_p90_s: 'tpot_p90_ms', ttft_p90_s: 'ttft_p90_ms',
    tpot_p99_s: 'tpot_p99_ms', ttft_p99_s: 'ttft_p99_ms' };
  function controlFor(form, field) {
    if (form === modelForm) return config;
    if (form === planForm) return planForm.elements[PLAN_CONTROLS[field] || field] || planForm.elements.model;
    if (form === logForm) return field === 'model' || field === 'gpu' ? logForm.elements[field] : logText;
    var key = (field || '').replace(/^gpu_config\.?/, '').split('.')[0];
    return form.elements[key] || form.elements.memory_gib;
  }

  function refuse(form, error) {
    clearInvalid(form);
    var message = String(error.message).replace(/\.$/, '');
    // The field leads the message when the core's sentence does not name it.
    if (error.field && message.indexOf(error.field) < 0) message = error.field + ': ' + message;
    if (PLAN_CONTROLS[error.field]) message += ' (in seconds; the box takes milliseconds)';
    say(form, 'error', (form === planForm ? 'Not planned: ' : 'Not applied: ') + message +
      '. Every panel keeps its settings.', error.field);
    var control = controlFor(form, error.field);
    if (control) {
      control.setAttribute('aria-invalid', 'true');
      control.focus();
    }
  }

  function format(value, name) {
    try { return KvPanels.format(value, name); } catch (e) { return String(value); }
  }

  // A paste longer than the core reads, refused before it is parsed or copied into the module.
  // Characters are at least as few as UTF-8 bytes, so a text this long is surely over. The box is
  // emptied first: restyling a text box that holds megabytes (the refusal marks it) takes seconds.
  // The box's textLength is read before its value, which would copy the whole text out.
  function tooLarge(box, limit, field, what) {
    var length = box.textLength;
    if (!(length > limit)) return null;
    box.value = '';
    return { field: field, code: 'out_of_range', message: field + ' is ' + format(length, 'count') +
      ' characters; ' + what + ' is read up to ' + format(limit, 'count') + ' bytes (the box was emptied)' };
  }

  // A box over its maxlength (a script can set what typing and pasting cannot): the first one, named,
  // its length said, its text left out of the message and out of the box (laying it out would block).
  function overlong(form) {
    var boxes = form.querySelectorAll('input[type=text]');
    for (var i = 0; i < boxes.length; ++i) {
      var box = boxes[i], length = box.value.length;
      if (!(box.maxLength > 0 && length > box.maxLength)) continue;
      box.value = '';
      return { field: box.name, code: 'out_of_range', message: box.name + ' is ' + format(length, 'count') +
        ' characters; the box takes at most ' + format(box.maxLength, 'count') + ' (the box was emptied)' };
    }
    return null;
  }

  // Panels that refused what the defaults accepted (a panel at a setting the file does not suit).
  function panelNotes(reply) {
    return reply.errors.map(function (e) { return 'The ' + e.panel + ' panel kept its model: ' + e.message + '.'; });
  }

  // What the engine would do at the page's starting point, in its own words, when it would not start.
  function refusalNote(result) {
    return result.startup_error
      ? 'At the lesson\u2019s starting point the engine would refuse to start: ' + result.startup_error.message
      : '';
  }

  // A DOM element with a class and its text.
  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // A box's text as a number where it is one, else the text itself, for the core to name. Commas
  // only as thousands separators (1,979); "24,5" stays text for the core to reject.
  function numberOrText(text) {
    var grouped = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text);
    var number = /,/.test(text) && !grouped ? NaN : Number(text.replace(/,/g, ''));
    return isFinite(number) ? number : text;
  }

  // ---- Files: chosen or dropped into a form's text box ------------------------------------------

  // Fills `box` from a file chosen in the form's file input or dropped on the form (or dropped text),
  // then says which button to press. A file over `limit` bytes is refused by its size, unread: a
  // 100 MB log would otherwise stall the page while the text box takes it in.
  function acceptFiles(form, box, field, button, limit, what) {
    var input = form.querySelector('input[type="file"]');
    var refuse = function (bytes, unit) {
      box.setAttribute('aria-invalid', 'true');
      say(form, 'error', 'Not applied: ' + field + ' is ' + format(bytes, 'count') + ' ' + unit + '; ' + what + ' is read up to ' +
        format(limit, 'count') + ' bytes.', field);
    };
    var readText = function (text) {
      if (text.length > limit) return refuse(text.length, 'characters');
      box.value = text;
      box.removeAttribute('aria-invalid');
      say(form, null, 'Read ' + (text.length > 0 ? 'the file' : 'an empty file') + '; press \u201c' + button + '\u201d.');
    };
    var readFile = function (f) {
      if (!f) return;
      if (f.size > limit) return refuse(f.size, 'bytes (the file)');
      f.text().then(readText, function () { say(form, 'error', 'Not applied: the file could not be read.', field); });
    };
    input.addEventListener('change', function () { readFile(input.files && input.files[0]); });
    // A paste over the limit is refused before the box holds it: a box with megabytes in it costs
    // the browser seconds to lay out, and again to empty.
    box.addEventListener('paste', function (event) {
      var text = event.clipboardData ? event.clipboardData.getData('text/plain') : '';
      if (text.length <= limit) return;
      event.preventDefault();
      refuse(text.length, 'characters (the paste; the box was left as it was)');
    });
    ['dragenter', 'dragover'].forEach(function (type) {
      form.addEventListener(type, function (event) {
        event.preventDefault();
        form.classList.add('is-dragover');
      });
    });
    ['dragleave', 'drop'].forEach(function (type) {
      form.addEventListener(type, function () { form.classList.remove('is-dragover'); });
    });
    form.addEventListener('drop', function (event) {
      event.preventDefault();
      var files = event.dataTransfer && event.dataTransfer.files;
      if (files && files.length) readFile(files[0]);
      else if (event.dataTransfer) readText(event.dataTransfer.getData('text/plain') || '');
    });
  }

  // ---- The catalog's ids for the log's and the plan's boxes -------------------------------------

  // The catalog's ids as suggestions for the model and GPU boxes, once the module is there.
  var suggested = false;
  function suggestIds() {
    if (suggested) return;
    KvLesson.load().then(function () {
      if (suggested) return;
      suggested = true;
      var catalog = KvPanels.catalog();
      var fill = function (id, entries) {
        var list = document.getElementById(id);
        entries.forEach(function (entry) {
          var option = document.createElement('option');
          option.value = entry.id;
          if (entry.label) option.label = entry.label;
          list.appendChild(option);
        });
      };
      fill('kv-own-log-models', catalog.models);
      fill('kv-own-log-gpus', catalog.gpus);
      fill('kv-own-plan-models', catalog.models);
      fill('kv-own-plan-gpus', catalog.gpus);
    }, function () {});
  }
  root.addEventListener('toggle', function () { if (root.open) suggestIds(); });
  ['focusin', 'pointerdown'].forEach(function (type) {
    logForm.addEventListener(type, suggestIds);
    planForm.addEventListener(type, suggestIds);
  });
  // The log explainer and the planner are the tools' module (KvPanels.loadTools): fetched as the
  // reader starts on either form, so it is there by the time they submit, and never otherwise.
  var prefetchTools = function () { KvPanels.loadTools().catch(function () { /* submit says so */ }); };
  logForm.addEventListener('focusin', prefetchTools, { once: true });
  planForm.addEventListener('focusin', prefetchTools, { once: true });

  // ---- A model from its config.json -------------------------------------------------------------

  function modelSummary(result) {
    var m = result.model;
    var attention = m.attention === 'mla'
      ? 'MLA (one compressed latent per token and layer)'
      : format(m.num_key_value_heads, 'count') + ' KV heads of ' + format(m.num_attention_heads, 'count');
    var parts = [m.model_type || 'config.json', format(m.num_hidden_layers, 'count') + (m.num_hidden_layers === 1 ? ' layer' : ' layers'), attention,
      format(result.params, 'params') + ' parameters'];
    if (m.num_experts > 0) parts.push(format(m.num_experts, 'count') + ' experts');
    if (m.sliding_window > 0) parts.push('sliding window of ' + format(m.sliding_window, 'count') + ' tokens');
    parts.push('KV cache ' + format(result.kv_bytes_per_token, 'bytes') + ' per token');
    return 'Every panel now runs your config.json: ' + parts.join(', ') + '.';
  }

  acceptFiles(modelForm, config, 'model_config', 'Use this model', limits.input_bytes, 'a config.json');

  modelForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var tooLong = tooLarge(config, limits.input_bytes, 'model_config', 'a config.json');
    if (tooLong) { refuse(modelForm, tooLong); return; }
    var text = config.value.trim();
    var parsed;
    if (!text) {
      refuse(modelForm, { field: 'model_config', message: 'model_config is empty: paste a config.json or choose the file' });
      return;
    }
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      refuse(modelForm, { field: 'model_config', message: 'model_config is not valid JSON (' + e.message + ')' });
      return;
    }
    var unsendable = notPlainJson(parsed, 'model_config');
    if (unsendable) { refuse(modelForm, unsendable); return; }
    KvLesson.useOwn({ model_config: parsed }).then(function (reply) {
      if (reply.error) { refuse(modelForm, reply.error); return; }
      clearInvalid(modelForm);
      var derived = (reply.result.model.derived || []).map(function (d) { return d.field + ': ' + d.how; });
      say(modelForm, 'ok', [modelSummary(reply.result), derived.length ? 'Read with these rules:' : '',
        derived.length ? { items: derived } : null, refusalNote(reply.result)].concat(panelNotes(reply)));
    }, function (e) { say(modelForm, 'error', 'The panels could not load: ' + e.message); });
  });

  // ---- A GPU of your own ------------------------------------------------------------------------

  // The form as the core's gpu_config: numbers where the text is one, the text itself where it is
  // not (the core then names the field), and nothing for an empty optional box.
  function gpuConfig() {
    var out = {};
    GPU_NUMBERS.forEach(function (key) {
      var text = gpuForm.elements[key].value.trim();
      if (text) out[key] = numberOrText(text);
    });
    var name = gpuForm.elements.label.value.trim();
    out.id = name || 'custom';
    out.label = name || 'your GPU';
    return out;
  }

  function gpuSummary(result) {
    var g = result.gpu;
    var link = { nvlink: 'NVLink', pcie: 'PCIe', xgmi: 'xGMI' }[g.interconnect] || g.interconnect;
    var parts = [format(result.visible_memory_bytes, 'gib1') + ' as CUDA reports it (of ' + format(g.memory_bytes, 'gib0') + ')',
      format(g.hbm_bytes_per_s, 'bandwidth'), format(g.bf16_flops_per_s, 'flops_per_s') + ' BF16'];
    if (g.fp8_flops_per_s > 0) parts.push(format(g.fp8_flops_per_s, 'flops_per_s') + ' FP8');
    parts.push(link + ' ' + format(g.interconnect_bytes_per_s, 'bandwidth') + ' each way');
    return 'Every panel now runs on ' + g.label + ': ' + parts.join(', ') + '.';
  }

  gpuForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var long = overlong(gpuForm);
    if (long) { refuse(gpuForm, long); return; }
    KvLesson.useOwn({ gpu_config: gpuConfig() }).then(function (reply) {
      if (reply.error) { refuse(gpuForm, reply.error); return; }
      clearInvalid(gpuForm);
      say(gpuForm, 'ok', [gpuSummary(reply.result), refusalNote(reply.result)].concat(panelNotes(reply)));
    }, function (e) { say(gpuForm, 'error', 'The panels could not load: ' + e.message); });
  });

  // ---- Shared with kvcustom-log.js and kvcustom-plan.js -----------------------------------------

  var api = {
    root: root, logForm: logForm, planForm: planForm, PLAN_CONTROLS: PLAN_CONTROLS,
    say: say, refuse: refuse, clearInvalid: clearInvalid, format: format, element: element, panelNotes: panelNotes,
    acceptFiles: acceptFiles, numberOrText: numberOrText, tooLarge: tooLarge, overlong: overlong, limits: limits,
  };

  // ---- Back to the catalog, or to the lesson ----------------------------------------------------

  var BACK = {
    model_config: 'Every panel is back on the catalog\u2019s model: the one its model knob names.',
    gpu_config: 'Every panel is back on the catalog\u2019s GPU: the one its GPU knob names.',
    scenario: 'Every panel is back on the scenario its chapter opened with.',
  };

  Array.prototype.forEach.call(root.querySelectorAll('[data-kv-reset]'), function (button) {
    button.addEventListener('click', function () {
      var field = button.getAttribute('data-kv-reset');
      var form = button.closest('form');
      var done;
      if (field === 'scenario') {
        done = KvLesson.backToLesson();
      } else {
        var partial = {};
        partial[field] = null;
        done = KvLesson.useOwn(partial);
      }
      done.then(function (reply) {
        if (reply.error) { refuse(form, reply.error); return; }
        clearInvalid(form);
        if (form === logForm && api.hideExplanation) api.hideExplanation();
        if (field === 'scenario' && api.markShown) api.markShown(null);
        say(form, 'ok', [BACK[field]].concat(panelNotes(reply)));
      }, function (e) { say(form, 'error', 'The panels could not load: ' + e.message); });
    });
  });
  return api;
})();

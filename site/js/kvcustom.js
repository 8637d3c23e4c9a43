// The lesson page's "Your own model or GPU" form (templates/index.html): a Hugging Face
// config.json, pasted, dropped or chosen as a file; a GPU described by its data-sheet figures; a
// vLLM start-up log; and a load (model, GPUs, users, request lengths, latency objectives) to plan
// the `vllm serve` flags for. The first two go to every panel as model_config or gpu_config through
// KvLesson.useOwn (lesson.js), which has the core check them first: a rejection shows the core's
// message, which names the field, marks that control, and changes no panel. The log goes to the
// core's explainLog (KvPanels.explainLog): the scenario it describes goes to every panel through
// the same useOwn, and a table sets each logged number beside the model's, with what it means.
// The load goes to the core's planner (KvPanels.plan, core/plan/plan.hpp): the summary, then each
// candidate's command line and margins, or the closest one marked as falling short; "Show in the
// panels" sends that candidate's scenario (one GPU of one replica) to every panel through useOwn.
// The reset buttons send null, which is the catalog's model or GPU again, or put every panel back
// on its chapter's scenario (KvLesson.backToLesson). Nothing here computes a figure: the summaries
// and the table print the core's numbers through KvPanels.format (core/base/format.hpp).
// A classic script with no global of its own; without lesson.js and kvpanels.js the form stays
// hidden (it is `hidden` in the HTML, so the page without JavaScript shows no dead form).
(function () {
  'use strict';

  var root = document.querySelector('.kv-custom');
  if (!root || !window.KvLesson || !window.KvPanels || !KvLesson.useOwn) return;
  root.hidden = false;

  var modelForm = root.querySelector('#kv-own-model');
  var gpuForm = root.querySelector('#kv-own-gpu');
  var logForm = root.querySelector('#kv-own-log');
  var planForm = root.querySelector('#kv-own-plan');
  var config = modelForm.querySelector('textarea');
  var logText = logForm.querySelector('textarea');
  var explanation = logForm.querySelector('.kv-custom__explanation');
  var planResult = planForm.querySelector('.kv-custom__plan');
  var GPU_NUMBERS = ['memory_gib', 'hbm_tb_per_s', 'bf16_dense_tflops', 'fp8_dense_tflops', 'interconnect_gb_per_s'];

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
  var PLAN_CONTROLS = { itl_s: 'itl_ms', ttft_s: 'ttft_ms' };
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

  // ---- Files: chosen or dropped into a form's text box ------------------------------------------

  // Fills `box` from a file chosen in the form's file input or dropped on the form (or dropped text),
  // then says which button to press.
  function acceptFiles(form, box, field, button) {
    var input = form.querySelector('input[type="file"]');
    var readText = function (text) {
      box.value = text;
      box.removeAttribute('aria-invalid');
      say(form, null, 'Read ' + (text.length > 0 ? 'the file' : 'an empty file') + '; press \u201c' + button + '\u201d.');
    };
    var readFile = function (f) {
      if (!f) return;
      f.text().then(readText, function () { say(form, 'error', 'Not applied: the file could not be read.', field); });
    };
    input.addEventListener('change', function () { readFile(input.files && input.files[0]); });
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

  // ---- A model from its config.json -------------------------------------------------------------

  function modelSummary(result) {
    var m = result.model;
    var attention = m.attention === 'mla'
      ? 'MLA (one compressed latent per token and layer)'
      : format(m.num_key_value_heads, 'count') + ' KV heads of ' + format(m.num_attention_heads, 'count');
    var parts = [m.model_type || 'config.json', format(m.num_hidden_layers, 'count') + ' layers', attention,
      format(result.params, 'params') + ' parameters'];
    if (m.num_experts > 0) parts.push(format(m.num_experts, 'count') + ' experts');
    if (m.sliding_window > 0) parts.push('sliding window of ' + format(m.sliding_window, 'count') + ' tokens');
    parts.push('KV cache ' + format(result.kv_bytes_per_token, 'bytes') + ' per token');
    return 'Every panel now runs your config.json: ' + parts.join(', ') + '.';
  }

  acceptFiles(modelForm, config, 'model_config', 'Use this model');

  modelForm.addEventListener('submit', function (event) {
    event.preventDefault();
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
  // A box's text as a number where it is one, else the text itself, for the core to name. Commas
  // only as thousands separators (1,979); "24,5" stays text for the core to reject.
  function numberOrText(text) {
    var grouped = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text);
    var number = /,/.test(text) && !grouped ? NaN : Number(text.replace(/,/g, ''));
    return isFinite(number) ? number : text;
  }

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
    KvLesson.useOwn({ gpu_config: gpuConfig() }).then(function (reply) {
      if (reply.error) { refuse(gpuForm, reply.error); return; }
      clearInvalid(gpuForm);
      say(gpuForm, 'ok', [gpuSummary(reply.result), refusalNote(reply.result)].concat(panelNotes(reply)));
    }, function (e) { say(gpuForm, 'error', 'The panels could not load: ' + e.message); });
  });

  // ---- A vLLM start-up log ----------------------------------------------------------------------

  acceptFiles(logForm, logText, 'log', 'Explain this log');

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

  // A term's value in its unit, formatted by the core as the log prints it.
  var GIB = 1024 * 1024 * 1024;
  function formatTerm(value, unit) {
    if (value === null || value === undefined) return '\u2014';
    if (unit === 'GiB') return format(value * GIB, 'gib2');
    if (unit === 'tokens' || unit === 'blocks') return format(value, 'count') + ' ' + unit;
    if (unit === 'x') return format(value, 'x2');
    if (unit === 'fraction') return format(value, 'fixed2');
    return format(value, 'sig3') + ' ' + unit;
  }

  function formatDifference(difference) {
    if (difference === null || difference === undefined) return '\u2014';
    var text = format(difference, 'percent1');
    return difference > 0 && /[1-9]/.test(text) ? '+' + text : text;
  }

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // The table: each term's logged number beside the model's, the difference, and what it means.
  function explanationTable(x) {
    var table = element('table', 'kv-custom__terms');
    table.appendChild(element('caption', null, 'The log beside the model'));
    var head = table.appendChild(element('thead')).appendChild(element('tr'));
    ['Term', 'Logged', 'Model', 'Difference'].forEach(function (name) {
      var th = head.appendChild(element('th', null, name));
      th.scope = 'col';
    });
    var body = table.appendChild(element('tbody'));
    x.terms.forEach(function (t) {
      var row = body.appendChild(element('tr', 'kv-custom__term'));
      row.setAttribute('data-term', t.term);
      var name = row.appendChild(element('th', null, t.term));
      name.scope = 'row';
      name.rowSpan = 2;
      var logged = row.appendChild(element('td', 'kv-custom__logged', formatTerm(t.logged, t.unit)));
      if (t.inferred && t.logged !== null) logged.appendChild(element('span', 'kv-custom__inferred', 'inferred'));
      row.appendChild(element('td', 'kv-custom__model', formatTerm(t.model, t.unit)));
      row.appendChild(element('td', 'kv-custom__difference', formatDifference(t.difference)));
      var meaning = body.appendChild(element('tr', 'kv-custom__meaning'));
      meaning.appendChild(element('td', null, t.meaning)).colSpan = 3;
    });
    return table;
  }

  // The engine's verdict in the log beside the model's: both refuse, both start, or they differ.
  function refusalLines(x) {
    var logged = x.logged_refusal, model = x.model_refusal;
    if (!logged && !model) return [];
    var lines = [];
    if (logged) lines.push('The log shows the engine refusing to start (' + logged.kind + '): ' + logged.line);
    else lines.push('The log shows no refusal to start.');
    if (model) lines.push((logged ? 'The model refuses too' : 'The model, though, says the engine would refuse') +
      ' (' + model.kind + '): ' + model.message);
    else lines.push('The model would let the engine start: it misses this refusal.');
    return lines;
  }

  function showExplanation(x) {
    explanation.textContent = '';
    var refusals = refusalLines(x);
    if (refusals.length) {
      var verdict = explanation.appendChild(element('div', 'kv-custom__verdict'));
      refusals.forEach(function (line) { verdict.appendChild(element('p', null, line)); });
    }
    explanation.appendChild(explanationTable(x));
    if (x.assumptions.length) {
      explanation.appendChild(element('p', null, 'What the log does not say, and the model assumed:'));
      var list = explanation.appendChild(element('ul', 'kv-custom__assumptions'));
      x.assumptions.forEach(function (a) { list.appendChild(element('li', null, a)); });
    }
    var lines = explanation.appendChild(element('details', 'kv-custom__lines'));
    lines.appendChild(element('summary', null, 'The ' + format(x.recognised_lines.length, 'count') +
      (x.recognised_lines.length === 1 ? ' line' : ' lines') + ' it read'));
    lines.appendChild(element('pre', null, x.recognised_lines.join('\n')));
    explanation.hidden = false;
  }

  function hideExplanation() {
    explanation.hidden = true;
    explanation.textContent = '';
  }

  function logSummary(x) {
    var s = x.scenario;
    var parts = [s.model + ' on ' + s.gpu, 'vLLM ' + s.vllm_version];
    if (s.max_model_len !== null) parts.push('max_model_len ' + format(s.max_model_len, 'count'));
    parts.push('gpu_memory_utilization ' + format(s.gpu_memory_utilization, 'fixed2'));
    if (s.tensor_parallel_size > 1) parts.push('tensor_parallel_size ' + format(s.tensor_parallel_size, 'count'));
    if (s.kv_cache_dtype !== 'bf16') parts.push('kv_cache_dtype ' + s.kv_cache_dtype);
    return 'Every panel now runs the scenario this log describes: ' + parts.join(', ') + '.';
  }

  logForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var text = logText.value;
    if (!text.trim()) {
      hideExplanation();
      refuse(logForm, { field: 'log', message: 'log is empty: paste a vLLM start-up log or choose the file' });
      return;
    }
    var given = {};
    ['model', 'gpu'].forEach(function (key) {
      var value = logForm.elements[key].value.trim();
      if (value) given[key] = value;
    });
    KvLesson.load().then(function () {
      var x = KvPanels.explainLog(text, given);
      if (x.error) return { error: x.error };
      return KvLesson.useOwn(x.scenario).then(function (reply) { return reply.error ? reply : { x: x, reply: reply }; });
    }).then(function (outcome) {
      if (outcome.error) {
        hideExplanation();
        refuse(logForm, outcome.error);
        return;
      }
      clearInvalid(logForm);
      markShown(null);
      say(logForm, 'ok', [logSummary(outcome.x)].concat(panelNotes(outcome.reply)));
      showExplanation(outcome.x);
    }, function (e) { say(logForm, 'error', 'The panels could not load: ' + e.message); });
  });

  // ---- Plan the flags for a load ----------------------------------------------------------------

  var PLAN_REQUIRED = {
    model: 'model is empty: name a catalog model, as the panels\u2019 model knob does',
    gpu: 'gpu is empty: name a catalog GPU, as the panels\u2019 GPU knob does',
    gpu_count: 'gpu_count is empty: say how many GPUs there are',
    users: 'users is empty: say how many users are served at once',
    prompt_tokens: 'prompt_tokens is empty: say how many tokens a prompt has',
    output_tokens: 'output_tokens is empty: say how many tokens an answer has',
  };
  var ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

  // The form as `kvcache --plan` reads it: {target} or {error} naming the first empty box. The
  // objectives are typed in milliseconds and sent in seconds; an empty objective is none.
  function planTarget() {
    var target = {};
    var keys = Object.keys(PLAN_REQUIRED);
    for (var i = 0; i < keys.length; ++i) {
      var text = planForm.elements[keys[i]].value.trim();
      if (!text) return { error: { field: keys[i], message: PLAN_REQUIRED[keys[i]] } };
      target[keys[i]] = keys[i] === 'model' || keys[i] === 'gpu' ? text : numberOrText(text);
    }
    Object.keys(PLAN_CONTROLS).forEach(function (field) {
      var text = planForm.elements[PLAN_CONTROLS[field]].value.trim();
      if (!text) return;
      var ms = numberOrText(text);
      target[field] = typeof ms === 'number' ? ms / 1000 : text;
    });
    return { target: target };
  }

  function plural(n, one, many) { return format(n, 'count') + ' ' + (n === 1 ? one : many); }

  function shape(c) {
    return 'tensor_parallel_size ' + format(c.tensor_parallel_size, 'count') + ' \u00d7 ' +
      plural(c.replicas, 'replica', 'replicas') + ', ' + plural(c.users_per_replica, 'user', 'users') +
      (c.replicas > 1 ? ' per replica' : '');
  }

  // Copies the command line, or selects it where the clipboard is not offered (file://).
  function copyButton(code) {
    var button = element('button', 'kv-custom__copy', 'Copy');
    button.type = 'button';
    button.setAttribute('aria-label', 'Copy this command line');
    KvLesson.copyOnClick(button, code);
    return button;
  }

  // An objective's line: the candidate's time, against the objective when there is one.
  function objectiveLine(seconds, objective, headroom) {
    var text = format(seconds, 'duration');
    if (objective === null || objective === undefined) return text + ', no objective';
    return text + ' against ' + format(objective, 'duration') + ' (' + format(headroom, 'x2') + ' headroom)';
  }

  // One candidate: its GPUs, its command line, its margins per replica, and the button that shows
  // it in the panels. `name` is how the status line calls it ("the first candidate", "the closest").
  var candidateCount = 0;
  function candidateItem(c, name) {
    var item = element('li', 'kv-custom__candidate' + (c.meets ? '' : ' is-miss'));
    var head = item.appendChild(element('p', 'kv-custom__candidate-head'));
    head.id = 'kv-own-plan-candidate-' + (++candidateCount);
    if (!c.meets) head.appendChild(element('strong', 'kv-custom__miss', 'Closest, and it does not meet the target: '));
    head.appendChild(element('strong', null, plural(c.gpus_used, 'GPU', 'GPUs')));
    head.appendChild(document.createTextNode(': ' + shape(c)));
    if (c.misses.length) {
      var misses = item.appendChild(element('ul', 'kv-custom__misses'));
      c.misses.forEach(function (m) { misses.appendChild(element('li', null, m)); });
      if (c.startup_error) misses.appendChild(element('li', null, c.startup_error.message));
    }
    var command = item.appendChild(element('div', 'kv-custom__command'));
    // Each flag with its value unbroken (a line breaks between flags, never inside one); the text
    // is the line as is.
    var code = element('code');
    c.command_line.split(' ').reduce(function (parts, word) {
      var last = parts.length - 1;
      if (last >= 0 && /^--/.test(parts[last]) && parts[last].indexOf(' ') < 0 && !/^--/.test(word)) parts[last] += ' ' + word;
      else parts.push(word);
      return parts;
    }, []).forEach(function (part, i) {
      if (i) code.appendChild(document.createTextNode(' '));
      code.appendChild(element('span', null, part));
    });
    command.appendChild(element('pre')).appendChild(code);
    command.appendChild(copyButton(code));
    var m = c.margins;
    var margins = item.appendChild(element('dl', 'kv-custom__margins'));
    var row = function (term, text) {
      margins.appendChild(element('dt', null, term));
      margins.appendChild(element('dd', null, text));
    };
    row('Users', format(m.running, 'count') + ' of ' + format(m.users_per_replica, 'count') + ' running; the KV cache holds ' +
      plural(m.max_resident_sequences, 'sequence', 'sequences') + ' (' + format(m.users_headroom, 'x2') + ' headroom)');
    if (c.meets || m.running > 0) {
      row('ITL', objectiveLine(m.itl_s, m.itl_objective_s, m.itl_headroom));
      row('TTFT', objectiveLine(m.ttft_s, m.ttft_objective_s, m.ttft_headroom));
      row('Decode', format(c.decode_tokens_per_s, 'tokens_per_s') + (c.replicas > 1 ? ' across the replicas' : ''));
    }
    var show = item.appendChild(element('button', 'kv-custom__show', 'Show in the panels'));
    show.type = 'button';
    show.setAttribute('aria-describedby', head.id);
    show.addEventListener('click', function () {
      KvLesson.useOwn(c.scenario).then(function (reply) {
        if (reply.error) { refuse(planForm, reply.error); return; }
        clearInvalid(planForm);
        markShown(item);
        var status = planResult.querySelector('.kv-custom__plan-status');
        status.textContent = 'Every panel now shows ' + name + ' as one GPU of its replica (' + shape(c) + ')' +
          (c.startup_error ? ', where the engine refuses to start' : '') + '.';
        panelNotes(reply).forEach(function (note) { status.textContent += ' ' + note; });
        status.hidden = false;
      }, function (e) { say(planForm, 'error', 'The panels could not load: ' + e.message); });
    });
    return item;
  }

  // Marks the candidate the panels show (none: null), so a reader sees which one it was.
  function markShown(item) {
    if (!planResult) return;
    Array.prototype.forEach.call(planResult.querySelectorAll('.kv-custom__candidate'), function (li) {
      var shown = li === item;
      li.classList.toggle('is-shown', shown);
      li.querySelector('.kv-custom__show').textContent = shown ? 'Shown in the panels' : 'Show in the panels';
    });
    if (!item) {
      var status = planResult.querySelector('.kv-custom__plan-status');
      if (status) { status.textContent = ''; status.hidden = true; }
    }
  }

  function showPlan(plan) {
    planResult.textContent = '';
    planResult.appendChild(element('p', 'kv-custom__help', 'Each \u201cShow in the panels\u201d runs that candidate in ' +
      'every panel as one GPU of one replica: the panels draw a single GPU, with the users of its replica. ' +
      'Margins are per replica.'));
    var status = planResult.appendChild(element('p', 'kv-custom__plan-status'));
    status.setAttribute('role', 'status');
    status.hidden = true;
    var list = planResult.appendChild(element('ol', 'kv-custom__candidates'));
    list.setAttribute('aria-label', plan.met ? 'Candidates, cheapest first' : 'The closest candidate');
    if (plan.met) {
      plan.candidates.forEach(function (c, i) {
        list.appendChild(candidateItem(c, 'the ' + (ORDINALS[i] || 'next') + ' candidate'));
      });
    } else if (plan.closest) {
      list.appendChild(candidateItem(plan.closest, 'the closest candidate'));
    }
    planResult.hidden = false;
  }

  function hidePlan() {
    planResult.hidden = true;
    planResult.textContent = '';
  }

  planForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var read = planTarget();
    if (read.error) {
      hidePlan();
      refuse(planForm, read.error);
      return;
    }
    KvLesson.load().then(function () {
      var plan = KvPanels.plan(read.target);
      if (plan.error) {
        hidePlan();
        refuse(planForm, plan.error);
        return;
      }
      clearInvalid(planForm);
      say(planForm, plan.met ? 'ok' : 'error', plan.summary, null);
      showPlan(plan);
    }, function (e) { say(planForm, 'error', 'The panels could not load: ' + e.message); });
  });

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
        if (form === logForm) hideExplanation();
        if (field === 'scenario') markShown(null);
        say(form, 'ok', [BACK[field]].concat(panelNotes(reply)));
      }, function (e) { say(form, 'error', 'The panels could not load: ' + e.message); });
    });
  });
})();

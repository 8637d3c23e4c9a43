// The "Your own model or GPU" form's vLLM start-up log (kvcustom.js has the rest): the log goes to
// the core's explainLog (KvPanels.explainLog) with the catalog model and GPU given for what it does
// not say; the scenario it describes goes to every panel through KvLesson.useOwn, and a table sets
// each logged number beside the model's, with what it means, the assumptions made and any refusal
// to start. Numbers print through KvPanels.format. Extends KvCustom with hideExplanation (the reset).
(function () {
  'use strict';

  var custom = window.KvCustom;
  if (!custom) return;
  var logForm = custom.logForm;
  var logText = logForm.querySelector('textarea');
  var explanation = logForm.querySelector('.kv-custom__explanation');
  var format = custom.format, element = custom.element, say = custom.say, refuse = custom.refuse;
  var clearInvalid = custom.clearInvalid, panelNotes = custom.panelNotes;

  custom.acceptFiles(logForm, logText, 'log', 'Explain this log', custom.limits.log_bytes, 'a start-up log');

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
    // An out-of-memory line is said once, as the failure it is.
    if (logged && x.failure && logged.line === x.failure.line) logged = null;
    if (!logged && !model) return [];
    var lines = [];
    if (logged) lines.push('The log shows the engine refusing to start (' + logged.kind + '): ' + logged.line);
    else lines.push('The log shows no refusal to start.');
    if (!x.scenario) return lines;  // no model ran: nothing to set beside it
    if (model) lines.push((logged ? 'The model refuses too' : 'The model, though, says the engine would refuse') +
      ' (' + model.kind + '): ' + model.message);
    else lines.push('The model would let the engine start: it misses this refusal.');
    return lines;
  }

  // A failure the paste shows (out of memory at a stage, NCCL), and what to change.
  function failureLines(x) {
    var lines = [];
    if (x.failure) {
      lines.push('The log shows a failure (' + x.failure.kind.replace(/_/g, ' ') + ', while ' +
        x.failure.stage.replace(/_/g, ' ') + '): ' + x.failure.line);
    }
    if (x.advice) lines.push('What to change: ' + x.advice);
    return lines;
  }

  // The catalog models the log's numbers fit, for a log that names none: what matched, how near.
  function candidateList(x) {
    var found = x.model_inference.candidates;
    var box = element('div', 'kv-custom__candidates');
    var weighed = x.terms.some(function (t) { return t.term === 'weights' && t.logged !== null; });
    box.appendChild(element('p', null, found.length
      ? 'The log names no catalog model; these fit its numbers' + (x.model_inference.unique ? ' (the first is the one the panels run):' : ':')
      : weighed ? 'The log names no catalog model, and none fits its numbers: give the model above.'
        : 'The log names no catalog model and states no weights to tell one by: give the model above.'));
    if (!found.length) return box;
    var list = box.appendChild(element('ul', 'kv-custom__candidate-list'));
    var because = { weights_and_kv_bytes: 'weights and KV bytes per token', weights_and_pool: 'weights, and the pool on ', weights: 'weights only' };
    found.forEach(function (c) {
      var what = because[c.evidence] + (c.evidence === 'weights_and_pool' ? c.gpu : '');
      list.appendChild(element('li', null, c.model + ' at tensor_parallel_size ' + format(c.tensor_parallel_size, 'count') +
        ', kv_cache_dtype ' + c.kv_cache_dtype + ': ' + format(c.weights_gib * GIB, 'gib2') + ' of weights (' +
        formatDifference(c.weights_difference) + '); matches on ' + what));
    });
    return box;
  }

  function showExplanation(x) {
    explanation.textContent = '';
    var refusals = refusalLines(x).concat(failureLines(x));
    if (refusals.length) {
      var verdict = explanation.appendChild(element('div', 'kv-custom__verdict'));
      refusals.forEach(function (line) { verdict.appendChild(element('p', null, line)); });
    }
    if (x.model_inference.candidates.length || !x.scenario) explanation.appendChild(candidateList(x));
    if (x.terms.length) explanation.appendChild(explanationTable(x));
    x.notes.forEach(function (note) { explanation.appendChild(element('p', null, note)); });
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
    var parts = [s.model + ' on ' + s.gpu + (x.gpu_assumed ? ' (assumed: the log states no GPU memory; name your GPU above and explain again)' : ''),
      'vLLM ' + s.vllm_version];
    if (s.max_model_len !== null) parts.push('max_model_len ' + format(s.max_model_len, 'count'));
    // A log that leaves the setting at the engine's default says nothing of it: the core's value, so named.
    var used = (x.terms || []).filter(function (t) { return t.term === 'gpu_memory_utilization'; })[0];
    if (s.gpu_memory_utilization !== null) parts.push('gpu_memory_utilization ' + format(s.gpu_memory_utilization, 'fixed2'));
    else parts.push('gpu_memory_utilization left at the engine default' + (used ? ' (' + format(used.model, 'fixed2') + ')' : ''));
    if (s.tensor_parallel_size > 1) parts.push('tensor_parallel_size ' + format(s.tensor_parallel_size, 'count'));
    if (s.kv_cache_dtype !== 'bf16') parts.push('kv_cache_dtype ' + s.kv_cache_dtype);
    return 'Every panel now runs the scenario this log describes: ' + parts.join(', ') + '.';
  }

  logForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var tooLong = custom.tooLarge(logText, custom.limits.log_bytes, 'log', 'a start-up log') || custom.overlong(logForm);
    if (tooLong) {
      hideExplanation();
      refuse(logForm, tooLong);
      return;
    }
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
    Promise.all([KvLesson.load(), KvPanels.explainLog(text, given)]).then(function (loaded) {
      var x = loaded[1];
      if (x.error) return { error: x.error };
      if (!x.scenario) return { x: x, reply: null };  // no model to run: the log is restated on its own
      return KvLesson.useOwn(x.scenario).then(function (reply) { return reply.error ? reply : { x: x, reply: reply }; });
    }).then(function (outcome) {
      if (outcome.error) {
        hideExplanation();
        refuse(logForm, outcome.error);
        return;
      }
      clearInvalid(logForm);
      if (custom.markShown) custom.markShown(null);
      if (outcome.reply) say(logForm, 'ok', [logSummary(outcome.x)].concat(panelNotes(outcome.reply)));
      else say(logForm, 'ok', 'The log is restated below; the panels keep their scenario until the model is known: give it in the model box.');
      showExplanation(outcome.x);
    }, function (e) { say(logForm, 'error', 'The explainer could not load: ' + e.message); });
  });

  custom.hideExplanation = hideExplanation;
})();

// The "Your own model or GPU" form's planner (kvcustom.js has the rest): a load (catalog model and
// GPU, GPU count, users or a request rate, prompt and output tokens, optional median, p90 and p99 objectives in
// ms, sent in seconds, and a GPU-hour price) goes to the core's planner (KvPanels.plan,
// core/plan/plan.hpp): the summary, then each candidate's command line, its simulated latencies,
// cost and accuracy caveats, or the closest one marked as falling short, and what each GPU buys
// (the Pareto front); "Show in the
// panels" sends that candidate's scenario (one GPU of one replica) to every panel through
// KvLesson.useOwn. Numbers print through KvPanels.format. Extends KvCustom with markShown.
(function () {
  'use strict';

  var custom = window.KvCustom;
  if (!custom) return;
  var planForm = custom.planForm;
  var planResult = planForm.querySelector('.kv-custom__plan');
  var PLAN_CONTROLS = custom.PLAN_CONTROLS;
  var format = custom.format, element = custom.element, say = custom.say, refuse = custom.refuse;
  var clearInvalid = custom.clearInvalid, panelNotes = custom.panelNotes, numberOrText = custom.numberOrText;

  var PLAN_REQUIRED = {
    model: 'model is empty: name a catalog model, as the panels\u2019 model knob does',
    gpu: 'gpu is empty: name a catalog GPU, as the panels\u2019 GPU knob does',
    gpu_count: 'gpu_count is empty: say how many GPUs there are',
    users: 'users is empty: say how many users are served at once, or give a request rate',
    prompt_tokens: 'prompt_tokens is empty: say how many tokens a prompt has',
    output_tokens: 'output_tokens is empty: say how many tokens an answer has',
  };
  var ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

  // The form as `kvcache --plan` reads it: {target} or {error} naming the first empty box. The
  // objectives are typed in milliseconds and sent in seconds; an empty objective is none.
  function planTarget() {
    var long = custom.overlong(planForm);
    if (long) return { error: long };
    var target = {};
    var rate = planForm.elements.rate_per_s.value.trim();
    if (rate) target.rate_per_s = numberOrText(rate);   // the arrivals replace the users
    var keys = Object.keys(PLAN_REQUIRED);
    for (var i = 0; i < keys.length; ++i) {
      var text = planForm.elements[keys[i]].value.trim();
      if (!text && keys[i] === 'users' && rate) continue;
      if (!text) return { error: { field: keys[i], message: PLAN_REQUIRED[keys[i]] } };
      target[keys[i]] = keys[i] === 'model' || keys[i] === 'gpu' ? text : numberOrText(text);
    }
    Object.keys(PLAN_CONTROLS).forEach(function (field) {
      var text = planForm.elements[PLAN_CONTROLS[field]].value.trim();
      if (!text) return;
      var ms = numberOrText(text);
      target[field] = typeof ms === 'number' ? ms / 1000 : text;
    });
    var price = planForm.elements.gpu_hour_price.value.trim();
    if (price) target.gpu_hour_price = numberOrText(price);
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

  // The load as simulated: a latency's median and 99th percentile.
  function percentiles(p) { return format(p.p50, 'duration') + ' median, ' + format(p.p99, 'duration') + ' p99'; }
  function money(v) { return format(v, 'sig2'); }

  // A candidate's margins per replica: its users, the load as simulated, what it costs, and what
  // its quantisation may cost in accuracy.
  function marginRows(margins, c) {
    var m = c.margins;
    var row = function (term, text) {
      margins.appendChild(element('dt', null, term));
      margins.appendChild(element('dd', null, text));
    };
    row('Users', format(m.running, 'count') + ' of ' + format(m.users_per_replica, 'count') + ' running; the KV cache holds ' +
      plural(m.max_resident_sequences, 'sequence', 'sequences') + ' (' + format(m.users_headroom, 'x2') + ' headroom)');
    if (c.served) {
      row('TPOT', c.served.tpot_s.count ? percentiles(c.served.tpot_s) : 'none: one output token has no time between tokens');
      row('TTFT', percentiles(c.served.ttft_s));
      row('Output', format(c.served.output_tokens_per_s, 'tokens_per_s') + (c.replicas > 1 ? ' across the replicas' : ''));
      if (c.served.cost) row('Cost', money(c.served.cost.per_million_output_tokens) + ' per million output tokens, ' +
        money(c.served.cost.per_million_input_tokens) + ' per million prompt tokens');
    }
    if (c.meets || m.running > 0) row('Idle', 'one decode step ' + format(m.idle_decode_step_s, 'duration') +
      ', one prompt alone ' + format(m.idle_ttft_s, 'duration'));
    if (c.caveats.length) row('Accuracy', c.caveats.join('. ') + '.');
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
    marginRows(item.appendChild(element('dl', 'kv-custom__margins')), c);
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
      }, function (e) { say(planForm, 'error', 'The planner could not load: ' + e.message); });
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
    if (plan.pareto.length > 1) {
      var words = 'What each GPU buys (fewest GPUs against the p99 time per output token, among the configurations ' +
        'simulated): ' + plan.pareto.map(function (c) {
          return plural(c.gpus_used, 'GPU', 'GPUs') + ' ' + format(c.served.tpot_s.p99, 'duration');
        }).join(', ') + '.';
      planResult.appendChild(element('p', 'kv-custom__help', words));
      planResult.appendChild(paretoPicture(plan, words));
    }
    planResult.hidden = false;
  }

  // The Pareto front as a picture: GPUs across, p99 time per output token up, a point per
  // configuration on the front, and the p99 objective as a dashed line when there is one.
  var SVG = 'http://www.w3.org/2000/svg';
  function svg(name, attrs, parent) {
    var el = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(el);
    return el;
  }
  function paretoPicture(plan, words) {
    var w = 320, h = 150, left = 48, bottom = 28, top = 10, right = 12;
    var front = plan.pareto, objective = plan.target.tpot_p99_s;
    var most = Math.max(objective || 0, front[0].served.tpot_s.p99) * 1.1;
    var gpus = front[front.length - 1].gpus_used;
    var x = function (g) { return left + (w - left - right) * (gpus > 1 ? (g - 1) / (gpus - 1) : 0.5); };
    var y = function (s) { return top + (h - top - bottom) * (1 - s / most); };
    var pic = svg('svg', { viewBox: '0 0 ' + w + ' ' + h, class: 'kv-pareto', role: 'img', 'aria-label': words });
    svg('line', { x1: left, y1: h - bottom, x2: w - right, y2: h - bottom, class: 'kv-pareto__axis' }, pic);
    svg('line', { x1: left, y1: top, x2: left, y2: h - bottom, class: 'kv-pareto__axis' }, pic);
    if (objective) svg('line', { x1: left, y1: y(objective), x2: w - right, y2: y(objective), class: 'kv-pareto__objective' }, pic);
    svg('polyline', { points: front.map(function (c) { return x(c.gpus_used) + ',' + y(c.served.tpot_s.p99); }).join(' '),
      class: 'kv-pareto__front' }, pic);
    front.forEach(function (c) {
      svg('circle', { cx: x(c.gpus_used), cy: y(c.served.tpot_s.p99), r: 3.5, class: 'kv-pareto__point' + (c.meets ? ' is-met' : '') }, pic);
      svg('text', { x: x(c.gpus_used), y: h - bottom + 14, class: 'kv-pareto__tick' }, pic).textContent = format(c.gpus_used, 'count');
    });
    svg('text', { x: left - 6, y: top + 4, class: 'kv-pareto__label kv-pareto__label--end' }, pic).textContent = format(most, 'duration');
    svg('text', { x: w - right, y: h - 2, class: 'kv-pareto__label kv-pareto__label--end' }, pic).textContent = 'GPUs';
    svg('text', { x: left + 4, y: top + 4, class: 'kv-pareto__label' }, pic).textContent = 'p99 time per output token';
    return pic;
  }

  // Published prices for the GPU typed (content/data/gpu_prices.json, each with its provider and
  // date): examples for the price box, never filled in for the reader.
  var prices = JSON.parse(planForm.getAttribute('data-prices') || '[]');
  var priceNote = planForm.querySelector('#kv-own-plan-prices');
  function showPrices() {
    var gpu = planForm.elements.gpu.value.trim();
    var listed = prices.filter(function (p) { return p.gpu === gpu; });
    priceNote.textContent = listed.length ? 'Published prices for the ' + gpu + ', in US dollars per GPU-hour: ' + listed.map(function (p) {
      return format(p.usd_per_gpu_hour, 'sig3') + ' (' + p.provider + ', ' + p.terms + ', ' + p.date + ')';
    }).join('; ') + '. They move week to week.' : '';
  }
  if (priceNote) {
    planForm.elements.gpu.addEventListener('input', showPrices);
    planForm.elements.gpu.addEventListener('change', showPrices);
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
    Promise.all([KvLesson.load(), KvPanels.plan(read.target)]).then(function (loaded) {
      var plan = loaded[1];
      if (plan.error) {
        hidePlan();
        refuse(planForm, plan.error);
        return;
      }
      clearInvalid(planForm);
      say(planForm, plan.met ? 'ok' : 'error', plan.summary, null);
      showPlan(plan);
    }, function (e) { say(planForm, 'error', 'The planner could not load: ' + e.message); });
  });

  custom.markShown = markShown;
})();

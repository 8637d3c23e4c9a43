// The lesson page's behaviour, all of it. The page reads right without this file: every figure is
// baked into the HTML by the site generator. With it:
//   - each panel mounts when it comes near the viewport (KvPanels, site/js/kvpanels.js);
//   - each reading section (a `{{scenario NAME}}` marker in the Markdown, up to the next marker or
//     heading) names the scenario its text describes: when a section reaches the reading line
//     (an IntersectionObserver on the text's blocks, no scroll handler), the panel beside it moves
//     to that scenario and says what changed. A change the reader makes (a knob, a figure, the
//     address, the forms) wins while they stay in that section; the panel's header names its
//     scenario, lists the figures the section quotes as the panel computes them, and offers
//     "Back to the text's scenario" while the reader's own state is shown;
//   - clicking a figure loads the figure's scenario into its chapter's panel and brings the panel
//     into view (a figure computed from several scenarios cycles through them on each click);
//   - every panel the reader changed is mirrored into the URL hash, one group each, the last
//     changed at the end (#panel=admission&prompt_tokens=...&panel=phases&gpu=A100), and restored
//     from it on load;
//   - figures whose scenario the panel is showing are marked, and the embed snippet and each
//     panel's "open on its own" link follow the panel's state;
//   - the reader's own model_config or gpu_config, or the whole scenario a pasted vLLM log
//     describes (the "Your own model or GPU" form, kvcustom.js), goes to every panel:
//     KvLesson.useOwn(partial) checks it with the core, sets it on each mounted panel and on each
//     panel that mounts later; KvLesson.backToLesson() puts every panel back on its chapter's scenario.
// Page data comes from attributes (the CSP forbids inline scripts, file:// forbids fetch).
// window.KvLesson exposes the panels' handles, load, useOwn, backToLesson and the
// load-to-first-panel time for tests.
(function () {
  'use strict';

  document.documentElement.classList.add('kv-js');
  var main = document.querySelector('.kv-article');
  if (!main) return;

  var defaults = JSON.parse(main.getAttribute('data-defaults') || '{}');
  var scenarios = JSON.parse(main.getAttribute('data-scenarios') || '{}');
  var base = JSON.parse(main.getAttribute('data-base') || '{}');   // the lesson's starting point
  var moduleUrl = main.getAttribute('data-module');
  var knownFields = Object.keys(defaults);
  var reduceMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  var panels = Object.create(null);  // no prototype: "#panel=__proto__" must name no panel
  var own = {};   // the reader's fields for every panel: model_config, gpu_config, a log's scenario (useOwn)
  var lesson = window.KvLesson = { panels: {}, firstPanelMs: null, errors: [], sections: [], reading: null };

  // ---- Panels -----------------------------------------------------------------------------------

  // Panels are named by id: a kind's first panel by its kind ("admission"), a later one of the same
  // kind with a number ("admission-2"). KvLesson.panels, figures and the hash use the id.
  Array.prototype.forEach.call(document.querySelectorAll('figure.kv-panel'), function (figure) {
    var id = figure.getAttribute('data-panel');
    var head = figure.querySelector('.kv-panel__head');
    panels[id] = {
      id: id,
      kind: figure.getAttribute('data-kind') || id,
      figure: figure,
      canvas: figure.querySelector('canvas'),
      status: figure.querySelector('.kv-panel__status'),
      link: figure.querySelector('[data-embed-link]'),
      head: head,
      scenarioLine: head && head.querySelector('.kv-panel__scenario'),
      note: head && head.querySelector('.kv-panel__note'),
      quoted: head && head.querySelector('.kv-panel__quoted'),
      back: head && head.querySelector('.kv-panel__back'),
      initial: JSON.parse(figure.getAttribute('data-state')),
      text: figure.getAttribute('data-scenario-name'),   // the scenario the text beside it describes
      section: null,     // the reading section it last followed
      pinned: null,      // the reader's own state is shown: the section it was set in, or 'pending'
      expected: [],      // states this script set, whose change notices are not the reader's
      tall: false,
      promise: null,
      handle: null,
    };
    if (head) head.hidden = false;
  });

  // On a wide screen a panel sticks beside its chapter's text. One taller than the window moves
  // with the page until its far edge shows, then holds (scrolling down shows its bottom, scrolling
  // up its top), so every part of it can be reached; a new scenario shows its top, where its
  // header and knobs are. Only the sticky offset changes: nothing is redrawn.
  var TOP = 16;
  function lowestTop(panel) { return Math.min(TOP, window.innerHeight - panel.figure.offsetHeight - TOP); }
  function fitSticky(panel) {
    var min = lowestTop(panel);
    panel.tall = min < TOP && getComputedStyle(panel.figure).position === 'sticky';
    var top = panel.tall ? Math.max(min, Math.min(TOP, parseFloat(panel.figure.style.top) || min)) : min;
    panel.figure.style.top = top + 'px';
    // Room after the chapter's text for a tall panel to slide in (lesson.css, .kv-chapter::after),
    // so its knobs can be brought back beside the text's last lines.
    panel.figure.parentElement.style.setProperty('--kv-overhang', panel.tall ? TOP - min + 'px' : '0px');
  }
  function revealTop(panel) {
    if (panel.tall) panel.figure.style.top = TOP + 'px';
  }
  var lastScrollY = window.scrollY;
  function slideTall() {
    var dy = window.scrollY - lastScrollY;
    lastScrollY = window.scrollY;
    if (!dy) return;
    Object.keys(panels).forEach(function (id) {
      var panel = panels[id];
      if (!panel.tall) return;
      var top = parseFloat(panel.figure.style.top) || TOP;
      var next = Math.max(lowestTop(panel), Math.min(TOP, top - dy));
      if (next !== top) panel.figure.style.top = next + 'px';
    });
  }
  if (window.ResizeObserver) {
    var sizes = new ResizeObserver(function (entries) {
      entries.forEach(function (e) { fitSticky(panels[e.target.getAttribute('data-panel')]); });
    });
    Object.keys(panels).forEach(function (id) { sizes.observe(panels[id].figure); });
  }
  window.addEventListener('resize', function () { Object.keys(panels).forEach(function (k) { fitSticky(panels[k]); }); });

  function setStatus(panel, text, failed) {
    if (!panel.status) return;
    panel.status.textContent = text;
    panel.figure.classList.toggle('is-failed', !!failed);
  }

  function mount(panel) {
    if (panel.promise) return panel.promise;
    if (!window.KvPanels) {
      setStatus(panel, 'The interactive panel did not load (js/kvpanels.js is missing). The figures in the text are unaffected.', true);
      panel.promise = Promise.reject(new Error('KvPanels missing'));
      panel.promise.catch(function () {});
      return panel.promise;
    }
    setStatus(panel, 'Loading the panel…');
    panel.figure.classList.add('is-loading');
    var ownAtMount = JSON.stringify(own);
    panel.promise = KvPanels.mount(panel.canvas, { panel: panel.kind, state: textState(panel), moduleUrl: moduleUrl })
      .then(function (handle) {
        panel.handle = lesson.panels[panel.id] = handle;
        if (window.KvLink) KvLink.attach(panel.figure, handle);   // linked reading (kvlink.js)
        // The reader chose another model or GPU while this panel was loading.
        if (JSON.stringify(own) !== ownAtMount) handle.setState(Object.assign({ model_config: null, gpu_config: null }, own));
        panel.figure.classList.remove('is-loading');
        panel.figure.classList.add('is-mounted');
        if (lesson.firstPanelMs === null) {
          lesson.firstPanelMs = performance.now();
          if (performance.mark) performance.mark('kv:first-panel');
        }
        handle.onChange(function (state) {
          var i = panel.expected.indexOf(JSON.stringify(state));
          if (i >= 0) {                       // a state this script set: the text's, not the reader's
            panel.expected.splice(0, i + 1);
            changed(panel, state, false);
            return;
          }
          panel.expected = [];
          readerChanged(panel);
          changed(panel, state, true);
        });
        // The text moved on while the module loaded.
        if (panel.pinned === null) setQuietly(panel, textState(panel));
        changed(panel, handle.getState(), false);
        return handle;
      }, function (error) {
        panel.figure.classList.remove('is-loading');
        if (error.field === 'panel') {
          // A panel kind this build's module does not have yet: the text's figures still stand.
          setStatus(panel, 'This panel is not in this build yet. Every figure in the text is already computed.', true);
          panel.figure.classList.add('is-absent');
          throw error;
        }
        setStatus(panel, 'The interactive panel could not start: ' + error.message +
          '. The figures in the text are unaffected.', true);
        lesson.errors.push(String(error));
        throw error;
      });
    panel.promise.catch(function () {});
    return panel.promise;
  }

  // Loads a full scenario into a panel; reports a refusal in the panel's status line.
  function show(panel, state) {
    return mount(panel).then(function (handle) {
      var reply = handle.setState(state);
      if (reply && reply.error) setStatus(panel, reply.error.message, true);
      return handle;
    });
  }

  // The hash holds one group per panel the reader changed (or the address restored), the one
  // changed last at the end: `#panel=admission&prompt_tokens=32768&panel=phases&gpu=A100`. Each
  // group is its panel's whole state over the defaults, so a copied address restores every panel.
  var inHash = [];                       // kinds, in the order they were last changed
  var hashText = Object.create(null);    // kind -> its group's text
  var restoring = Object.create(null);   // kinds being set from the address

  function writeHash() {
    if (!window.history || !history.replaceState) return;
    var text = inHash.map(function (kind) { return hashText[kind]; }).join('&');
    try { history.replaceState(null, '', '#' + text); } catch (e) { /* some file:// setups refuse */ }
  }

  function remember(kind, text) {
    var i = inHash.indexOf(kind);
    if (i >= 0) inHash.splice(i, 1);
    inHash.push(kind);
    hashText[kind] = text;
  }

  // A hash group names the panel by id ("panel=admission-2"); embed.html's address by its kind.
  function hashQuery(panel, state) {
    var query = KvState.toQuery(panel.kind, state, defaults);
    return 'panel=' + encodeURIComponent(panel.id) + query.slice(query.indexOf('&') < 0 ? query.length : query.indexOf('&'));
  }

  function forget(id) {
    var i = inHash.indexOf(id);
    if (i < 0) return;
    inHash.splice(i, 1);
    delete hashText[id];
    writeHash();
  }

  function changed(panel, state, byReader) {
    markFigures(panel.id, state);
    var query = KvState.toQuery(panel.kind, state, defaults);
    if (panel.link) panel.link.setAttribute('href', 'embed.html?' + query);
    if (byReader) {
      updateSnippets(panel.kind, state);
      if (restoring[panel.id]) hashText[panel.id] = hashQuery(panel, state);   // keeps the address's order
      else remember(panel.id, hashQuery(panel, state));
      writeHash();
    }
    updateHead(panel);
  }

  // Mount each panel as it comes within a screen of the viewport: the wasm loads only when needed.
  // An IntersectionObserver does it as the reader scrolls; a check after scrolling stops catches a
  // jump (a link, a restored scroll position) that skipped over a panel between two frames.
  function mountNear() {
    Object.keys(panels).forEach(function (kind) {
      var box = panels[kind].figure.getBoundingClientRect();
      if (box.bottom > -window.innerHeight && box.top < 2 * window.innerHeight) mount(panels[kind]);
    });
  }
  var settle = null;
  window.addEventListener('scroll', function () {
    slideTall();
    clearTimeout(settle);
    settle = setTimeout(mountNear, 150);
  }, { passive: true });
  if (window.IntersectionObserver) {
    var near = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        near.unobserve(e.target);
        mount(panels[e.target.getAttribute('data-panel')]);
      });
    }, { rootMargin: '100% 0px' });
    Object.keys(panels).forEach(function (kind) { near.observe(panels[kind].figure); });
  } else {
    Object.keys(panels).forEach(function (kind) { mount(panels[kind]); });
  }

  function bringIntoView(panel) {
    if (panel.tall) {
      // A sticky panel beside the text: show its top where it stands rather than scroll the page.
      revealTop(panel);
      var shown = panel.figure.getBoundingClientRect();
      if (shown.bottom > 0 && shown.top < window.innerHeight) return;
    }
    var box = panel.figure.getBoundingClientRect();
    var fits = box.top >= 0 && box.bottom <= window.innerHeight;
    if (!fits) {
      // The text this scroll passes over is not being read: it moves no panel.
      passingUntil = performance.now() + (reduceMotion ? 150 : 1200);
      panel.figure.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'nearest' });
    }
  }

  // ---- Figures ----------------------------------------------------------------------------------

  var figures = Array.prototype.slice.call(main.querySelectorAll('a.kv-fig[data-panel]'));

  function markFigures(id, state) {
    figures.forEach(function (a) {
      if (a.getAttribute('data-panel') !== id) return;
      var names = JSON.parse(a.getAttribute('data-scenario-names'));
      var shown = names.filter(function (n) { return KvState.sameScenario(scenarios[n], state); });
      a.classList.toggle('is-active', shown.length > 0);
    });
  }

  main.addEventListener('click', function (event) {
    var a = event.target.closest && event.target.closest('a.kv-fig[data-panel]');
    if (!a) return;
    var panel = panels[a.getAttribute('data-panel')];
    if (!panel || !window.KvPanels) return;   // the link still jumps to the panel
    event.preventDefault();
    var names = JSON.parse(a.getAttribute('data-scenario-names'));
    // A figure over several scenarios (a ratio, a difference) shows the next one on each click.
    var current = panel.handle ? panel.handle.getState() : null;
    var index = 0;
    for (var i = 0; i < names.length; ++i)
      if (current && KvState.sameScenario(scenarios[names[i]], current)) index = (i + 1) % names.length;
    var state = scenarios[names[index]] || JSON.parse(a.getAttribute('data-scenario'));
    // The reader's choice, made in the figure's section: it stands while they read that section.
    var section = sectionOf(a);
    panel.pinned = section ? section.index : 'pending';
    bringIntoView(panel);
    show(panel, state).then(function (handle) {
      changed(panel, handle.getState(), true);
    }, function () {});
  });

  // ---- Reading sections -------------------------------------------------------------------------

  // The generator writes an empty .kv-section-mark where a `{{scenario NAME}}` stood; the blocks
  // after it, up to the next mark or heading, are its section. KvLesson.sections lists them
  // ({index, scenario, panel, elements}) and KvLesson.reading is the one at the reading line.
  var sectionByElement = new Map();
  Array.prototype.forEach.call(main.querySelectorAll('.kv-chapter'), function (chapter) {
    var current = null;
    Array.prototype.forEach.call(chapter.children, function (el) {
      if (el.classList.contains('kv-section-mark')) {
        current = { index: lesson.sections.length, scenario: el.getAttribute('data-section-scenario'),
                    panel: el.getAttribute('data-panel'), elements: [] };
        lesson.sections.push(current);
        return;
      }
      if (el.tagName === 'H2') current = null;
      if (!current || el.matches('figure.kv-panel')) return;
      current.elements.push(el);
      sectionByElement.set(el, current);
    });
  });

  function sectionOf(node) {
    for (var el = node; el && el !== main; el = el.parentElement)
      if (sectionByElement.has(el)) return sectionByElement.get(el);
    return null;
  }

  // The state a panel shows when it follows the text: its section's scenario, whole (so nothing
  // is left over from an earlier section), with the reader's own model, GPU or log kept.
  function textState(panel) {
    return Object.assign({}, scenarios[panel.text] || panel.initial, own);
  }

  // Sets a state whose change notice must not count as the reader's.
  function setQuietly(panel, state) {
    if (!panel.handle) return null;
    var before = JSON.stringify(panel.handle.getState());
    var reply = panel.handle.setState(state);
    var after = JSON.stringify(panel.handle.getState());
    if (after !== before) panel.expected.push(after);
    if (reply && reply.error) setStatus(panel, reply.error.message, true);
    return reply;
  }

  // A knob, a figure, the address or a form: the reader's state stands while they read the
  // section they changed it in (or, changed from elsewhere, the next section of this panel).
  function readerChanged(panel) {
    if (panel.pinned === null) panel.pinned = reading && reading.panel === panel.id ? reading.index : 'pending';
    if (panel.note) panel.note.textContent = '';
  }

  var reading = null;
  var passingUntil = 0;   // until then, the page is scrolling to a panel on the script's behalf
  function enterSection(section) {
    reading = section;
    lesson.reading = section.index;
    var panel = panels[section.panel];
    if (!panel) return;
    if (panel.pinned !== null) {
      if (panel.pinned === 'pending') panel.pinned = section.index;
      if (panel.pinned === section.index) return;
      panel.pinned = null;    // the reader moved on: the panel follows the text again
      forget(panel.id);
    }
    follow(panel, section);
  }

  function follow(panel, section) {
    panel.section = section;
    panel.text = section.scenario;
    if (!panel.handle) { updateHead(panel); return; }
    var before = panel.handle.getState();
    setQuietly(panel, textState(panel));
    var after = panel.handle.getState();
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      say(panel, 'Now: ' + differences(before, after).join(', '));
      revealTop(panel);
    }
    changed(panel, after, false);
  }

  // The visible note of what changed; it fades in unless the reader prefers reduced motion (CSS).
  function say(panel, text) {
    if (!panel.note) return;
    panel.note.textContent = text;
    panel.note.classList.remove('is-fresh');
    void panel.note.offsetWidth;   // restarts the animation
    panel.note.classList.add('is-fresh');
  }

  // The reading line sits a third of the way down the window. An IntersectionObserver reports
  // the text block crossing it; nothing happens while the reader stays in one section.
  if (window.IntersectionObserver && lesson.sections.length) {
    var line = new IntersectionObserver(function (entries) {
      var hit = null;
      entries.forEach(function (e) { if (e.isIntersecting) hit = sectionByElement.get(e.target) || hit; });
      if (hit && hit !== reading && performance.now() >= passingUntil) enterSection(hit);
    }, { rootMargin: '-33% 0px -66% 0px' });
    sectionByElement.forEach(function (section, el) { line.observe(el); });
  }

  // ---- The panel's header: its scenario, the figures the text quotes, the way back ----------------

  function fmt(value, format) {
    if (value === null || value === undefined) return 'engine default';
    if (typeof value !== 'number') return String(value);
    if (window.KvPanels) try { return KvPanels.format(value, format); } catch (e) { /* not loaded yet */ }
    return value.toLocaleString('en-US');
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
    case 'tensor_parallel_size': return 'tensor parallel over ' + fmt(v, 'count');
    case 'pipeline_parallel_size': return 'pipeline parallel over ' + fmt(v, 'count');
    case 'vllm_version': return 'vLLM ' + v;
    case 'entry': return v === 'offline' ? 'offline engine' : 'vllm serve';
    case 'enforce_eager': return v ? 'eager (no CUDA graphs)' : 'CUDA graphs';
    case 'model_config': return v ? 'your config.json' : 'the catalog model';
    case 'gpu_config': return v ? 'your GPU' : 'the catalog GPU';
    case 'workload': return v + ' workload';
    case 'rate_per_s': return fmt(v, 'sig2') + ' requests a second';
    case 'requests': return fmt(v, 'count') + ' requests in all';
    case 'shared_prefix_tokens': return fmt(v, 'count') + '-token shared prompt';
    case 'prefix_caching': return v ? 'prefix caching on' : 'prefix caching off';
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
    return key === 'seed' || (key === 'shared_prefix_tokens' && !v) || (key === 'prefix_caching' && v === true);
  }

  function differences(before, after) {
    return Object.keys(after).filter(function (k) { return !same(before[k], after[k]); }).sort(byOrder)
      .map(function (k) { return describeField(k, after[k]); });
  }

  // "Qwen3-32B on H100 · 32,768-token prompts": model, GPU, then what differs from the lesson's
  // starting point.
  function describe(state, result) {
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

  function label(path) {
    return path.replace(/^scenario\./, '').replace(/_per_s$/, ' per second').replace(/_s$/, '').replace(/[._]/g, ' ');
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
        // Inputs are in the header line already; log lines are long and shown in the panel.
        if (/^(log|scenario|workload)\./.test(path) || seen[path + '|' + format]) return;
        seen[path + '|' + format] = true;
        var value = valueAt(result, path);
        if (value === undefined) return;
        var text = format === 'text' ? String(value) : fmt(value, format);
        out.push({ figure: a, field: path, format: format, text: text, matches: text === a.textContent });
      });
    });
    return out;
  }

  function updateHead(panel) {
    if (!panel.head) return;
    var state = panel.handle ? panel.handle.getState() : textState(panel);
    var result = panel.handle ? panel.handle.result() : null;
    var onText = KvState.sameScenario(textState(panel), state);
    panel.scenarioLine.textContent = '';
    var tag = panel.scenarioLine.appendChild(document.createElement('span'));
    tag.className = 'kv-panel__tag';
    tag.textContent = onText ? 'The text\u2019s scenario' : 'Your scenario';
    panel.scenarioLine.appendChild(document.createTextNode(' ' + describe(state, result)));
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

  Object.keys(panels).forEach(function (id) {
    var panel = panels[id];
    updateHead(panel);
    if (!panel.back) return;
    panel.back.addEventListener('click', function () {
      panel.pinned = null;
      forget(panel.id);
      if (!panel.handle) return;
      var before = panel.handle.getState();
      setQuietly(panel, textState(panel));
      var after = panel.handle.getState();
      revealTop(panel);
      changed(panel, after, false);
      say(panel, 'Back to the text: ' + (differences(before, after).join(', ') || describe(after, panel.handle.result())));
    });
  });

  // ---- The URL hash -----------------------------------------------------------------------------

  function restoreFromHash() {
    var groups = KvState.parse(location.hash).groups.filter(function (g) { return g.panel !== null; });
    if (!groups.length) return;
    inHash = [];
    hashText = Object.create(null);
    var last = null;
    groups.forEach(function (group) {
      if (!panels[group.panel]) {
        var first = panels[Object.keys(panels)[0]];
        var note = 'The address names no panel "' + group.panel + '"; the panels are ' + Object.keys(panels).join(', ') + '.';
        if (first) mount(first).then(function () { setStatus(first, note, true); }, function () {});
        return;
      }
      // Until the panel mounts, the hash keeps the group as the address gave it.
      remember(group.panel, 'panel=' + encodeURIComponent(group.panel) + group.fields.map(function (pair) {
        return '&' + encodeURIComponent(pair[0]) + '=' + encodeURIComponent(pair[1]);
      }).join(''));
      last = panels[group.panel];
    });
    inHash.forEach(function (kind) {
      var panel = panels[kind];
      var fields = groups.filter(function (g) { return g.panel === kind; }).reduce(function (all, g) { return all.concat(g.fields); }, []);
      mount(panel).then(function (handle) {
        restoring[kind] = true;
        handle.setState(defaults);
        var errors = KvState.applyFields(handle, fields, knownFields);
        queueMicrotask(function () { delete restoring[kind]; });   // after the panel's change notices
        if (errors.length)
          setStatus(panel, 'From the address: ' + errors.map(function (e) { return e.message; }).join('; '), true);
        changed(panel, handle.getState(), false);
        hashText[kind] = hashQuery(panel, handle.getState());
        if (panel === last) {
          updateSnippets(panel.kind, handle.getState());
          bringIntoView(panel);
        }
      }, function () {});
    });
  }
  restoreFromHash();
  window.addEventListener('hashchange', restoreFromHash);

  // ---- The reader's own model and GPU ----------------------------------------------------------

  // The module, loaded once from the page's own address (KvPanels.load).
  lesson.load = function () {
    if (!window.KvPanels) return Promise.reject(new Error('KvPanels missing'));
    return KvPanels.load({ moduleUrl: moduleUrl });
  };

  // Sets stateOf(panel) on every mounted panel; returns those that refused it, with the message.
  function setEverywhere(stateOf) {
    var errors = [];
    Object.keys(panels).forEach(function (kind) {
      var handle = panels[kind].handle;
      if (!handle) return;   // mounts later, with `own` applied
      var reply = handle.setState(stateOf(panels[kind]));
      if (reply && reply.error) errors.push({ panel: kind, field: reply.error.field, message: reply.error.message });
    });
    return errors;
  }

  // partial: scenario fields for every panel: {model_config: {...} | null} and/or {gpu_config:
  // {...} | null} (null: the catalog's again), or a whole scenario (a log's). Checked once with the
  // core over the page's defaults, so a bad file changes nothing on any panel; resolves {error}
  // from the core, or {ok, result, errors} where result is the core's result at the defaults and
  // errors lists any panel that still refused it. Kept (nulls too) for the panels that mount later.
  lesson.useOwn = function (partial) {
    return lesson.load().then(function () {
      var check = KvPanels.evaluate(Object.assign({}, defaults, own, partial));
      if (check.error) return { error: check.error };
      Object.assign(own, partial);
      return { ok: true, result: check, errors: setEverywhere(function () { return partial; }) };
    });
  };

  // Every panel back on the scenario the text beside it describes, following the text again; the
  // reader's own model or GPU, if one is set, stays. Resolves {ok, errors} as useOwn does.
  lesson.backToLesson = function () {
    return lesson.load().then(function () {
      var kept = {};
      ['model_config', 'gpu_config'].forEach(function (key) { if (own[key]) kept[key] = own[key]; });
      own = kept;
      var errors = [];
      Object.keys(panels).forEach(function (id) {
        var panel = panels[id];
        panel.pinned = null;
        forget(id);
        if (!panel.handle) return;
        var reply = setQuietly(panel, Object.assign({ model_config: null, gpu_config: null }, textState(panel)));
        if (reply && reply.error) errors.push({ panel: id, field: reply.error.field, message: reply.error.message });
      });
      return { ok: true, errors: errors };
    });
  };

  // ---- Embed snippets ---------------------------------------------------------------------------

  var snippets = Array.prototype.slice.call(main.querySelectorAll('.kv-snippet'));

  // As the generator's (site/generator/render.cpp): no height, kvembed-host.js fits the frame.
  function snippetCode(kind, state) {
    return '<iframe data-kv-embed src="kv/embed.html?' + KvState.toQuery(kind, state, defaults) +
      '" title="KV cache panel" style="width:100%;border:0"></iframe>\n<script src="kv/js/kvembed-host.js"></script>';
  }

  function updateSnippets(kind, state) {
    snippets.forEach(function (s) {
      s.querySelector('code').textContent = snippetCode(kind, state);
    });
  }

  // Copies `code`'s text on a click, or selects it where the clipboard is refused; the button
  // says which for two seconds. The snippets here and the planner's command lines use it.
  lesson.copyOnClick = function (button, code) {
    var label = button.textContent;
    button.addEventListener('click', function () {
      var done = function (ok) {
        button.textContent = ok ? 'Copied' : 'Selected: press Ctrl+C';
        setTimeout(function () { button.textContent = label; }, 2000);
      };
      var select = function () {
        var range = document.createRange();
        range.selectNodeContents(code);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        done(false);
      };
      if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(code.textContent).then(function () { done(true); }, select);
      else select();
    });
  };

  snippets.forEach(function (s) {
    var button = s.querySelector('.kv-snippet__copy');
    if (!button) return;
    button.hidden = false;
    lesson.copyOnClick(button, s.querySelector('code'));
  });
})();

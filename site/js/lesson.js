// The lesson page's behaviour, all of it. The page reads right without this file: every figure is
// baked into the HTML by the site generator. With it:
//   - each panel mounts when it comes near the viewport (KvPanels, site/js/kvpanels.js);
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
  var moduleUrl = main.getAttribute('data-module');
  var knownFields = Object.keys(defaults);
  var reduceMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  var panels = Object.create(null);  // no prototype: "#panel=__proto__" must name no panel
  var own = {};   // the reader's fields for every panel: model_config, gpu_config, a log's scenario (useOwn)
  var lesson = window.KvLesson = { panels: {}, firstPanelMs: null, errors: [] };

  // ---- Panels -----------------------------------------------------------------------------------

  Array.prototype.forEach.call(document.querySelectorAll('figure.kv-panel'), function (figure) {
    panels[figure.getAttribute('data-panel')] = {
      kind: figure.getAttribute('data-panel'),
      figure: figure,
      canvas: figure.querySelector('canvas'),
      status: figure.querySelector('.kv-panel__status'),
      link: figure.querySelector('[data-embed-link]'),
      initial: JSON.parse(figure.getAttribute('data-state')),
      promise: null,
      handle: null,
    };
  });

  // On a wide screen a panel sticks beside its chapter's text. One taller than the window sticks
  // by its bottom edge instead of its top, so every part of it can be scrolled into view.
  function fitSticky(panel) {
    var top = Math.min(16, window.innerHeight - panel.figure.offsetHeight - 16);
    panel.figure.style.top = top + 'px';
  }
  if (window.ResizeObserver) {
    var sizes = new ResizeObserver(function (entries) {
      entries.forEach(function (e) { fitSticky(panels[e.target.getAttribute('data-panel')]); });
    });
    Object.keys(panels).forEach(function (kind) { sizes.observe(panels[kind].figure); });
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
    panel.promise = KvPanels.mount(panel.canvas, { panel: panel.kind, state: Object.assign({}, panel.initial, own),
                                                   moduleUrl: moduleUrl })
      .then(function (handle) {
        panel.handle = lesson.panels[panel.kind] = handle;
        // The reader chose another model or GPU while this panel was loading.
        if (JSON.stringify(own) !== ownAtMount) handle.setState(Object.assign({ model_config: null, gpu_config: null }, own));
        panel.figure.classList.remove('is-loading');
        panel.figure.classList.add('is-mounted');
        if (lesson.firstPanelMs === null) {
          lesson.firstPanelMs = performance.now();
          if (performance.mark) performance.mark('kv:first-panel');
        }
        handle.onChange(function (state) { changed(panel, state, true); });
        changed(panel, handle.getState(), false);
        return handle;
      }, function (error) {
        panel.figure.classList.remove('is-loading');
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

  function changed(panel, state, byReader) {
    markFigures(panel.kind, state);
    var query = KvState.toQuery(panel.kind, state, defaults);
    if (panel.link) panel.link.setAttribute('href', 'embed.html?' + query);
    if (byReader) {
      updateSnippets(panel.kind, state);
      if (restoring[panel.kind]) hashText[panel.kind] = query;   // keeps the address's order
      else remember(panel.kind, query);
      writeHash();
    }
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
    var box = panel.figure.getBoundingClientRect();
    var fits = box.top >= 0 && box.bottom <= window.innerHeight;
    if (!fits) panel.figure.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'nearest' });
  }

  // ---- Figures ----------------------------------------------------------------------------------

  var figures = Array.prototype.slice.call(main.querySelectorAll('a.kv-fig[data-panel]'));

  function markFigures(kind, state) {
    figures.forEach(function (a) {
      if (a.getAttribute('data-panel') !== kind) return;
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
    bringIntoView(panel);
    show(panel, state).then(function (handle) {
      changed(panel, handle.getState(), true);
    }, function () {});
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
        hashText[kind] = KvState.toQuery(kind, handle.getState(), defaults);
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

  // Every panel back on the scenario its chapter opened with; the reader's own model or GPU, if
  // one is set, stays. Resolves {ok, errors} as useOwn does.
  lesson.backToLesson = function () {
    return lesson.load().then(function () {
      var kept = {};
      ['model_config', 'gpu_config'].forEach(function (key) { if (own[key]) kept[key] = own[key]; });
      own = kept;
      var errors = setEverywhere(function (panel) {
        return Object.assign({}, panel.initial, { model_config: null, gpu_config: null }, own);
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

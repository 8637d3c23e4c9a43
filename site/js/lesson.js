// The lesson page's behaviour; the page reads right without it (the generator bakes every figure).
// It keeps each panel's record and wires the parts loaded before it: panels mount near the viewport
// and stick beside their text (lesson-layout.js); a reading section (lesson-sections.js) moves its
// panel to its scenario at the reading line; a reader's change (a knob, a figure, the address, a
// number dragged in the text: lesson-knobs.js) is never overwritten by scrolling, the section's
// scenario is offered instead; the reader's own model, GPU or log rides along with every scenario;
// the header names the scenario and the figures quoted (lesson-head.js); a figure's click loads its
// scenario; panels the reader changed live in the URL hash (lesson-hash.js); snippets follow state;
// each panel draws first the knobs and results its section uses (lesson-sections.js' focusOf).
// window.KvLesson: the panels' handles, the named scenarios, load, useOwn(partial) (a config, GPU or
// log's scenario for every panel, once the core accepts it: kvcustom.js), backToLesson, copyOnClick,
// scenarioWithOwn, knobMoved, the load-to-first-panel time. Page data comes from attributes (CSP, file://).
(function () {
  'use strict';   // the page's kv-js class is set by kvhead.js, before the body is parsed
  var main = document.querySelector('.kv-article');
  if (!main) return;
  var defaults = JSON.parse(main.getAttribute('data-defaults') || '{}');
  var scenarios = JSON.parse(main.getAttribute('data-scenarios') || '{}');   // each as it differs from the defaults,
  for (var n in scenarios) scenarios[n] = Object.assign({}, defaults, scenarios[n]);   // made whole here
  var base = JSON.parse(main.getAttribute('data-base') || '{}'), moduleUrl = main.getAttribute('data-module');   // base: the text's start
  var knownFields = KvState.fieldNames().filter(function (name) { return name in defaults; });  // the scenario's, in its table's order
  var panels = Object.create(null);  // no prototype: "#panel=__proto__" must name no panel
  var own = {};   // the reader's fields for every panel: model_config, gpu_config, a log's scenario (useOwn)
  var lesson = window.KvLesson = { panels: {}, scenarios: scenarios, firstPanelMs: null, errors: [], sections: [], reading: null };

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
      link: figure.querySelector('[data-embed-link]'), head: head,
      scenarioLine: head && head.querySelector('.kv-panel__scenario'), note: head && head.querySelector('.kv-panel__note'),
      quoted: head && head.querySelector('.kv-panel__quoted'), back: head && head.querySelector('.kv-panel__back'),
      initial: JSON.parse(figure.getAttribute('data-state')),
      text: figure.getAttribute('data-scenario-name'),   // the scenario the text beside it describes
      section: null,     // the reading section it last followed
      pinned: null,      // the reader's own state is shown: the section it was set in, or 'pending'
      expected: [],      // states this script set, whose change notices are not the reader's
      knobState: null,   // a knob of its chapter moved before it mounted: shown, as the reader's, when it does
      tall: false, promise: null, handle: null,
    };
    if (head) head.hidden = false;
  });

  function setStatus(panel, text, failed) {
    if (panel.handle) return KvPanelHead.problem(panel, text);   // it goes on drawing
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
        KvSections.focusPanel(panel, scenarios);   // what its section uses first
        if (lesson.firstPanelMs === null) {
          lesson.firstPanelMs = performance.now();
          if (performance.mark) performance.mark('kv:first-panel');
        }
        handle.onChange(function (state, result, landed) {
          if (landed) return updateHead(panel);   // the same state, its run now in the result
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
        // The text moved on while the module loaded; or the reader moved a knob in its chapter first.
        if (panel.pinned === null) setQuietly(panel, textState(panel));
        if (panel.knobState) handle.setState(panel.knobState);
        changed(panel, handle.getState(), !!panel.knobState);
        panel.knobState = null;
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

  function changed(panel, state, byReader) {
    markFigures(panel.id, state);
    var query = KvState.toQuery(panel.kind, state, defaults);
    if (panel.link) panel.link.setAttribute('href', 'embed.html?' + query);
    if (byReader) {
      updateSnippets(panel.kind, state);
      KvLessonHash.changed(panel, state, defaults);   // the URL hash (lesson-hash.js)
    }
    updateHead(panel);
  }

  // Each panel mounts near the viewport and sticks beside its chapter's text (lesson-layout.js).
  KvLayout.watch(panels, mount);

  function bringIntoView(panel) {
    KvLayout.bringIntoView(panel, function (reduceMotion) {
      // The text this scroll passes over is not being read: it moves no panel.
      passingUntil = performance.now() + (reduceMotion ? 150 : 1200);
    });
  }

  // ---- Figures ----------------------------------------------------------------------------------

  var figures = Array.prototype.slice.call(main.querySelectorAll('a.kv-fig[data-panel]'));

  function markFigures(id, state) {
    figures.forEach(function (a) {
      if (a.getAttribute('data-panel') !== id) return;
      var names = KvSections.scenariosOf(a, scenarios);
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
    var names = KvSections.scenariosOf(a, scenarios);
    // A figure over several scenarios (a ratio, a difference) shows the next one on each click.
    var current = panel.handle ? panel.handle.getState() : null;
    var index = 0;
    for (var i = 0; i < names.length; ++i)
      if (current && KvState.sameScenario(scenarios[names[i]], current)) index = (i + 1) % names.length;
    var state = scenarios[names[index]];
    bringIntoView(panel);
    readerShows(panel, a, state);
  });

  // The reader's choice, made at element `at` (a figure, a knob): it stands while they read its section.
  function pinAt(panel, at) {
    var section = sectionOf(at);
    panel.pinned = section ? section.index : 'pending';
    return panel;
  }
  function readerShows(panel, at, state) {
    show(pinAt(panel, at), state).then(function (handle) {
      changed(panel, handle.getState(), true);
    }, function () {});
  }

  // For lesson-knobs.js: a named scenario with the reader's own model or GPU, and the reader's
  // knob shown in the figure's chapter panel, now or, if it has not mounted yet, when it does.
  lesson.scenarioWithOwn = function (name) { return Object.assign({}, scenarios[name], own); };
  lesson.knobMoved = function (at, state) {
    var panel = panels[at.getAttribute('data-panel')];
    if (panel && panel.handle) readerShows(panel, at, state);
    else if (panel) pinAt(panel, at).knobState = state;
  };

  // ---- Reading sections -------------------------------------------------------------------------

  // KvLesson.sections lists the reading sections and KvLesson.reading is the one at the reading line
  // (lesson-sections.js).
  var reading = null;
  var passingUntil = 0;   // until then, the page is scrolling to a panel on the script's behalf
  var sections = KvSections.scan(main, lesson.sections);
  var sectionOf = sections.sectionOf;

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

  // A knob, a figure or the address: the reader's state stands from then on, in every section of
  // this panel, until they press "Back to the text's scenario" (or the page's way back to the lesson).
  function readerChanged(panel) {
    if (panel.pinned === null) panel.pinned = reading && reading.panel === panel.id ? reading.index : 'pending';
    KvPanelHead.say(panel, '');   // clears a refusal too
  }

  function enterSection(section) {
    reading = section;
    lesson.reading = section.index;
    var panel = panels[section.panel];
    if (!panel) return;
    if (panel.pinned !== null) {
      if (panel.pinned === 'pending') panel.pinned = section.index;
      offer(panel, section);
      return;
    }
    follow(panel, section);
  }

  // Scrolling never overwrites the reader's settings: the panel keeps them and offers the section's
  // scenario, which its back control loads. A refusal in the note (an address's bad field) stays until
  // the reader's next change: the scroll to a restored panel enters its section after the note.
  function offer(panel, section) {
    panel.section = section;
    panel.text = section.scenario;
    KvSections.focusPanel(panel, scenarios);
    updateHead(panel);
    if (!panel.handle || !panel.note || panel.note.matches('.is-problem')) return;
    var text = textState(panel);
    if (section.index === panel.pinned || KvState.sameScenario(text, panel.handle.getState())) panel.note.textContent = '';
    else KvPanelHead.say(panel, 'Your settings stay. This section uses ' + KvPanelHead.describe(text, null, base) +
      '; \u201cBack to the text\u2019s scenario\u201d loads it.');
  }

  function follow(panel, section) {
    panel.section = section;
    panel.text = section.scenario;
    KvSections.focusPanel(panel, scenarios);
    if (!panel.handle) { updateHead(panel); return; }
    var before = panel.handle.getState();
    setQuietly(panel, textState(panel));
    var after = panel.handle.getState();
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      KvPanelHead.say(panel, 'Now: ' + KvPanelHead.differences(before, after).join(', '));
      KvLayout.revealTop(panel);
    }
    changed(panel, after, false);
  }

  sections.watch(function (hit) {
    if (hit !== reading && performance.now() >= passingUntil) enterSection(hit);
  });

  // ---- The panel's header: its scenario, the figures the text quotes, the way back ----------------

  // The panel's header names its scenario and lists the figures its section quotes (lesson-head.js).
  function updateHead(panel) {
    if (!panel.head) return;
    var state = panel.handle ? panel.handle.getState() : textState(panel);
    var result = panel.handle ? panel.handle.result() : null;
    KvPanelHead.show(panel, state, result, KvState.sameScenario(textState(panel), state), base);
  }

  Object.keys(panels).forEach(function (id) {
    var panel = panels[id];
    updateHead(panel);
    if (!panel.back) return;
    panel.back.addEventListener('click', function () {
      panel.pinned = null;
      KvLessonHash.forget(panel.id);
      if (!panel.handle) return;
      var before = panel.handle.getState();
      setQuietly(panel, textState(panel));
      var after = panel.handle.getState();
      KvLayout.revealTop(panel);
      changed(panel, after, false);
      KvPanelHead.say(panel, 'Back to the text: ' + (KvPanelHead.differences(before, after).join(', ') ||
        KvPanelHead.describe(after, panel.handle.result(), base)));
    });
  });

  // ---- The URL hash -----------------------------------------------------------------------------

  function restoreFromHash() {
    var address = KvLessonHash.read(panels);
    if (!address) return;
    address.unknown.forEach(function (name) {
      var first = panels[Object.keys(panels)[0]];
      var note = 'The address names no panel "' + name + '"; the panels are ' + Object.keys(panels).join(', ') + '.';
      if (first) mount(first).then(function () { setStatus(first, note, true); }, function () {});
    });
    address.restore.forEach(function (group) {
      var panel = panels[group.id];
      mount(panel).then(function (handle) {
        var errors = KvLessonHash.restoring(group.id, function () {
          handle.setState(defaults);
          return KvState.applyFields(handle, group.fields, knownFields);
        });
        if (errors.length)
          setStatus(panel, 'From the address: ' + errors.map(function (e) { return e.message; }).join('; '), true);
        changed(panel, handle.getState(), false);
        KvLessonHash.restored(panel, handle.getState(), defaults);
        if (group.id === address.last) {
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
      // The reader's own model, GPU or log is part of every text state (`own`), so it pins no panel.
      var reply = setQuietly(panels[kind], stateOf(panels[kind]));
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
        KvLessonHash.forget(id);
        if (!panel.handle) return;
        var reply = setQuietly(panel, Object.assign({ model_config: null, gpu_config: null }, textState(panel)));
        if (reply && reply.error) errors.push({ panel: id, field: reply.error.field, message: reply.error.message });
      });
      return { ok: true, errors: errors };
    });
  };

  // ---- Embed snippets ---------------------------------------------------------------------------

  // The snippets follow the state the reader gives the panel of their kind (lesson-snippets.js).
  lesson.copyOnClick = KvSnippets.copyOnClick;
  var snippets = KvSnippets.attach(main);
  function updateSnippets(kind, state) { KvSnippets.update(snippets, kind, state, defaults); }
})();

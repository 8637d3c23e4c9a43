// KvPanels: the page's side of the lesson's panels. A classic script (module scripts are blocked
// on file://) that defines one global, KvPanels:
//
//   KvPanels.load({moduleUrl})            -> Promise<KvPanels>   loads kvcache.js once, after the first paint
//   KvPanels.mount(canvas, {panel, state, moduleUrl}) -> Promise<handle>, a serving panel's once its first run
//                                           landed; panel: 'admission' | 'phases' | 'batching' | 'serving'; loads if needed
//   KvPanels.evaluate(scenario)           -> result object (or {error}) once loaded
//   KvPanels.format(value, formatName)    -> text, formatted by core/base/format.hpp, once loaded
//   KvPanels.catalog(part?)               -> {models, gpus, fields, limits, defaults}, or one of them, once loaded
//   KvPanels.loaded(cb)                   cb(KvPanels) in a task of its own once the module is there, whoever loaded it
//   KvPanels.explainLog(text, given)      -> Promise<{scenario, assumptions, terms, logged_refusal, ...} | {error}>:
//                                            a vLLM start-up log explained; given: {model, gpu, ...} it lacks
//   KvPanels.plan(target)                 -> Promise<{met, summary, candidates, closest, target, ...} | {error}>: the
//                                            flags that serve a load (`kvcache --plan`); target: {model, gpu, users, ...}
//                                            (both load the tools' module on first use, no load() needed)
//   KvPanels.loadTools()                  -> Promise: fetches the tools' module ahead of its first use
//   KvPanels.simulate(scenario, workload)  -> the run's summary (or {error}): `kvcache --simulate`; workload: {workload, ...}
//   handle.getState()                     -> scenario (the CLI's field names); the serving panel adds its workload's fields
//   handle.setState(partial)              -> {ok: true} | {error: {field, code, message}}
//   handle.onChange(cb)                   -> unsubscribe; cb(state, result) after each accepted change (the same again is
//                                            silent); cb(state, result, true): a run landed
//   handle.result()                       -> result object; a serving panel's: simulation, simulating (a run is taken
//                                            a slice per frame; the last one stays until it lands)
//   handle.rejected                       -> the error of a refused initial state, or null
//   handle.layout()                       -> {field: [x, y, w, h]} of each knob, content-box CSS px (tests)
//   handle.knobs()                        -> [{field, label, help, drawn, control, options | stops | min/max/step/format,
//                                            optional}]: the panel's knobs (wasm/knobs.cpp's rows), whether its canvas draws each
//   handle.keyResults()                   -> [{label, key, format, text, kind}]: the key results, kind 'memory', 'time' or 'exact'
//   handle.highlight(concept | null)      -> {ok: true} | {error}: a palette concept's parts ('weights', 'kv-used'...) dimming the others
//   handle.concepts()                     -> {highlight, hovered, rects: {concept: [[x, y, w, h], ...]}}
//   handle.onHover(cb)                    -> unsubscribe; cb(concept | null) as the pointer enters or leaves one
//   handle.focus({knobs, reads} | null)   -> {ok: true} | {error}: the knobs (fields) and result paths the text beside
//                                            the panel uses, drawn first; the rest under "All controls and results" (null: all)
//   handle.focusBottom()                  -> where that first part ends, canvas CSS px (tests)
//   handle.playback()                     -> {playing, frame, frames, time_s, reduced_motion} (serving panel)
//   handle.play(on, frame)                -> plays or pauses the serving panel's run (from `frame` if given)
//   handle.unmount()
//   KvPanels.drawStats()                  -> {frames, animation_requests, mean_ms, ...} (tests, measurements)
//
// The module (build/wasm/kvcache.js, -sMODULARIZE) is shared by every panel on the page; kvmodules.js
// (before this file) loads it. The log explainer and the planner are a second module beside it,
// kvtools.js (the core without the panels), loaded the first time either is asked for: a reader who
// never pastes a log or plans a load never downloads it. This file only relays: it tells the module
// when a canvas is on or off screen, resized, or the reader's colour scheme or motion preference
// changed (the serving panel then does not play by itself), and sizes each canvas to the height its
// content asks for, so the page scrolls, never the panel.
// No inline scripts, no eval: it runs under script-src 'self' 'wasm-unsafe-eval'.
var KvPanels = (function () {
  'use strict';

  var modulePromise = null, kv = null;   // kv: the module once loaded
  var moduleBase = null;         // the folder the page named its module in (kvtools.js sits beside it)
  var toolsPromise = null, gpuWarm = null, catalogTexts = {};   // gpuWarm: kvwarm.js's word that GL started
  var panels = {};               // id -> {canvas, listeners, cleanup}
  var pendingHeights = {};       // heights reported while mount() was still running
  var opening = {};              // id -> what to do when a panel's canvas opens (a serving panel's once its first run landed)
  var canvasCount = 0, darkQuery = null, motionQuery = null, primed = false;   // primed: a first evaluation ran (mount)

  function parse(text) { return JSON.parse(text); }
  // What the module reads: 'null' for a value JSON cannot say (a function), 'not json' for a cycle.
  function jsonText(value) { try { var text = JSON.stringify(value); return text === undefined ? 'null' : text; } catch (e) { return 'not json'; } }

  // A verb's answer (KvModules.answer: a module that aborted answers a named error).
  function ask(verb) { return KvModules.answer(kv, verb, Array.prototype.slice.call(arguments, 1)); }

  function applyHeight(canvas, height) {
    var px = Math.max(1, Math.ceil(height)) + 'px';
    if (canvas.style.height !== px) canvas.style.height = px;
  }

  // The module's one hook: (id, 'change' | 'run' (a new run landed) | 'height' | 'hover' | 'open', payload).
  // Deferred to a microtask so a subscriber that calls setState never re-enters a frame being drawn.
  function onModuleEvent(id, event, payload) {
    var panel = panels[id];
    if (event === 'height') {
      if (panel) applyHeight(panel.canvas, Number(payload));
      else pendingHeights[id] = Number(payload);
      return;
    }
    if (event === 'open') { var done = opening[id]; delete opening[id]; return done && done(parse(payload)); }
    if (event === 'hover' && panel && panel.hoverListeners.length) {
      queueMicrotask(function () {
        var concept = parse(payload);
        panel.hoverListeners.slice().forEach(function (cb) { cb(concept); });
      });
      return;
    }
    if ((event === 'change' || event === 'run') && panel && panel.listeners.length) {
      queueMicrotask(function () {
        if (!panels[id]) return;
        var state = parse(payload);
        var result = ask('panelResult', id);
        panel.listeners.slice().forEach(function (cb) { cb(state, result, event === 'run'); });
      });
    }
  }

  function subscribe(list, cb) {
    list.push(cb);
    return function () {
      var i = list.indexOf(cb);
      if (i >= 0) list.splice(i, 1);
    };
  }

  function currentTheme() { return darkQuery && darkQuery.matches ? 'dark' : 'light'; }

  var whenLoaded = [];
  function loaded(cb) { if (kv) setTimeout(function () { cb(api); }); else whenLoaded.push(cb); }

  function load(options) {
    if (modulePromise) return modulePromise;
    var url = (options && options.moduleUrl) || 'kvcache.js';
    moduleBase = url.slice(0, url.lastIndexOf('/') + 1);
    modulePromise = KvModules.firstPaint()
      .then(function () { gpuWarm = KvModules.warmGpu(moduleBase); return KvModules.load(url, 'kvcache'); })
      .then(function (module) {
        kv = module;
        kv.setEventHook(onModuleEvent);
        darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
        kv.setTheme(currentTheme());
        if (darkQuery) darkQuery.addEventListener('change', function () { kv.setTheme(currentTheme()); });
        motionQuery = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;
        kv.setReducedMotion(!!(motionQuery && motionQuery.matches));
        if (motionQuery) motionQuery.addEventListener('change', function () { kv.setReducedMotion(motionQuery.matches); });
        whenLoaded.splice(0).forEach(loaded);
        return api;
      });
    modulePromise.catch(function () { modulePromise = null; });
    return modulePromise;
  }

  // The canvas's content box in CSS pixels, the device pixels it covers, and its offset inside the
  // border box (mouse coordinates are measured from there): [w, h, pw, ph, left, top].
  function measure(canvas) {
    var style = getComputedStyle(canvas);
    var px = function (v) { return parseFloat(v) || 0; };
    var rect = canvas.getBoundingClientRect();
    var w = rect.width - px(style.borderLeftWidth) - px(style.borderRightWidth) - px(style.paddingLeft) - px(style.paddingRight);
    var h = rect.height - px(style.borderTopWidth) - px(style.borderBottomWidth) - px(style.paddingTop) - px(style.paddingBottom);
    var ratio = window.devicePixelRatio || 1;
    return [Math.max(w, 1), Math.max(h, 1), Math.max(1, Math.round(w * ratio)), Math.max(1, Math.round(h * ratio)),
            px(style.borderLeftWidth) + px(style.paddingLeft), px(style.borderTopWidth) + px(style.paddingTop)];
  }

  function prepareCanvas(canvas) {
    if (!canvas.id) canvas.id = 'kvpanel-' + (++canvasCount);
    if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = 0;   // keyboard focus, in page order
    if (!canvas.hasAttribute('role')) canvas.setAttribute('role', 'application');
    if (!canvas.style.height && !canvas.clientHeight) canvas.style.height = '480px';
    canvas.style.touchAction = 'pan-y';   // vertical swipes scroll the page; taps reach the panel
  }

  function mountError(reply) {
    var err = new Error('KvPanels.mount: ' + reply.error.message);
    err.field = reply.error.field;
    err.code = reply.error.code;
    return err;
  }

  // Tells the module when the canvas is on or off screen and when its size or the device pixel
  // ratio changes; a click focuses the canvas (the module prevents the mousedown's default, text
  // selection). Each watcher's undoing goes into panel.cleanup.
  function watchCanvas(id, canvas, panel) {
    var focusOnPress = function () { canvas.focus({ preventScroll: true }); };
    canvas.addEventListener('mousedown', focusOnPress);
    panel.cleanup.push(function () { canvas.removeEventListener('mousedown', focusOnPress); });

    if (window.IntersectionObserver) {
      var io = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) { kv.panelSetVisible(id, e.isIntersecting); });
      }, { rootMargin: '64px' });
      io.observe(canvas);
      panel.cleanup.push(function () { io.disconnect(); });
    }
    // Every size the observer reports goes to the module, which ignores one it has: a cache here
    // missed the mount's own two heights (the whole panel, then its focus) landing between reports.
    var resize = function (next) { kv.panelResize(id, next[0], next[1], next[2], next[3], next[4], next[5]); };
    if (window.ResizeObserver) {
      // device-pixel-content-box gives the exact backing-store size (crisp at 1.25, 1.5...).
      var ro = new ResizeObserver(function (entries) {
        var e = entries[entries.length - 1];
        var next = measure(canvas);
        var device = e.devicePixelContentBoxSize && e.devicePixelContentBoxSize[0];
        // Trusted only when it agrees with devicePixelRatio (emulated ratios report CSS pixels).
        if (device && Math.abs(device.inlineSize - next[2]) <= 2 && Math.abs(device.blockSize - next[3]) <= 2)
          next = [e.contentRect.width, e.contentRect.height, device.inlineSize, device.blockSize, next[4], next[5]];
        resize(next);
      });
      try { ro.observe(canvas, { box: 'device-pixel-content-box' }); } catch (e) { ro.observe(canvas); }
      panel.cleanup.push(function () { ro.disconnect(); });
    }
    // devicePixelRatio changes (zoom, another screen) where ResizeObserver cannot report them.
    var watchRatio = function () {
      if (!window.matchMedia) return;
      var query = window.matchMedia('(resolution: ' + window.devicePixelRatio + 'dppx)');
      var onRatio = function () { query.removeEventListener('change', onRatio); resize(measure(canvas)); watchRatio(); };
      query.addEventListener('change', onRatio);
      panel.cleanup.push(function () { query.removeEventListener('change', onRatio); });
    };
    watchRatio();
    watchContext(canvas, panel);
  }

  // A lost WebGL context (module: platform_html5.cpp) says so beside the canvas until it returns. Browsers keep
  // about sixteen a page: unless keepsAll() (a frame's host may hold twenty), far panels give theirs back and take
  // them again near (one the browser dropped is asked for every 2 s near). Each way is a long task on SwiftShader
  // (40-305 ms), so a page of its own keeps up to six of 16 million pixels in all: the lesson's six, a phone's two.
  var held = [];   // {canvas, near(), release()} of each context the page holds
  function keepsAll() {
    var pixels = held.reduce(function (n, e) { return n + e.canvas.width * e.canvas.height; }, 0);
    return window.self === window.top && held.length <= 6 && pixels <= 16e6;
  }
  function giveBack() { held.filter(function (e) { return !e.near(); }).forEach(function (e) { if (!keepsAll()) e.release(); }); }
  function watchContext(canvas, panel) {
    var lostNote = null, released = false, near = true, retry = 0, gl = canvas.getContext('webgl2');
    var ext = gl && gl.getExtension('WEBGL_lose_context');
    var entry = { canvas: canvas, near: function () { return near; }, release: function () {
      if (ext && !gl.isContextLost()) { released = true; held.splice(held.indexOf(entry), 1); ext.loseContext(); } } };
    held.push(entry); giveBack();   // a new context may take the page past what it keeps
    var askBack = function () {
      clearTimeout(retry);
      retry = near && !released && gl.isContextLost() ? setTimeout(askBack, 2000) : 0;
      if (retry) ext.restoreContext();
    };
    if (ext && window.IntersectionObserver) {
      var watcher = new IntersectionObserver(function (entries) {
        near = entries[entries.length - 1].isIntersecting;
        if (!near) giveBack();
        else if (gl.isContextLost()) { if (released) held.push(entry); released = false; askBack(); }
      }, { rootMargin: '150% 0px' });
      watcher.observe(canvas);
      panel.cleanup.push(function () { watcher.disconnect(); clearTimeout(retry); });
    }
    var onLost = function (e) {
      e.preventDefault();   // else the browser allows no restoreContext() for a loss the module did not hear
      if (ext && !released && !retry) retry = setTimeout(askBack, 2000);
      if (lostNote || released) return;
      lostNote = Object.assign(document.createElement('p'), { className: 'kv-panel__lost', role: 'status',
        textContent: 'The browser took back this panel\u2019s drawing surface. It redraws, with your settings, when the browser returns it.' });
      canvas.insertAdjacentElement('afterend', lostNote);
    };
    var onRestored = function () { if (lostNote) lostNote.remove(); lostNote = null; };
    canvas.addEventListener('webglcontextlost', onLost); canvas.addEventListener('webglcontextrestored', onRestored);
    panel.cleanup.push(function () {
      if (!released) held.splice(held.indexOf(entry), 1);
      canvas.removeEventListener('webglcontextlost', onLost);
      canvas.removeEventListener('webglcontextrestored', onRestored);
      onRestored();
    });
  }

  // The page's handle on a mounted panel (the verbs listed at the top of this file).
  function makeHandle(id, canvas, panel, reply) {
    return {
      id: id,
      canvas: canvas,
      rejected: reply.rejected,
      getState: function () { return ask('panelGetState', id); },
      setState: function (partial) { return ask('panelSetState', id, jsonText(partial)); },
      result: function () { return ask('panelResult', id); },
      // Where each knob is drawn ({field: [x, y, width, height]} in canvas CSS pixels), for tests.
      layout: function () { return ask('panelLayout', id); },
      // The panel's knobs as data for native controls, and its key results as text (kvtwin.js).
      knobs: function () { return ask('panelKnobs', id); },
      keyResults: function () { return ask('panelKeyResults', id); },
      highlight: function (concept) { return ask('panelHighlight', id, concept ? String(concept) : ''); },
      concepts: function () { return ask('panelConcepts', id); },
      onHover: function (cb) { return subscribe(panel.hoverListeners, cb); },
      focus: function (focus) {
        var text;
        try { text = JSON.stringify(focus || null); } catch (e) { text = 'not json'; }
        return ask('panelFocus', id, text);
      },
      focusBottom: function () { return kv.panelFocusBottom(id); },
      // The serving panel's playback: {playing, frame, frames, time_s, reduced_motion}.
      playback: function () { return ask('panelPlayback', id); },
      play: function (on, frame) { kv.panelPlay(id, on !== false, typeof frame === 'number' ? Math.max(0, Math.floor(frame)) : -1); },
      onChange: function (cb) { return subscribe(panel.listeners, cb); },
      unmount: function () {
        panel.cleanup.forEach(function (f) { f(); });
        delete panels[id];
        kv.panelUnmount(id);
      },
    };
  }

  // The browser draws the panels' glyphs from the page's web fonts (wasm/platform/glyphs_html5.cpp),
  // so the first panel waits for them: at most 3 s, after which (or on a page without them) it draws
  // in the fallback faces.
  var fontsReady = null;
  function webFonts() {
    if (fontsReady) return fontsReady;
    var faces = ['400 15px Inter', '600 15px Inter', '400 13px "JetBrains Mono"'];
    var loading = document.fonts && document.fonts.load ? Promise.all(faces.map(function (f) { return document.fonts.load(f); })) : null;
    fontsReady = loading ? Promise.race([loading, new Promise(function (r) { setTimeout(r, 3000); })]).catch(function () {}) : Promise.resolve();
    return fontsReady;
  }

  function nextTask() { return new Promise(function (resolve) { setTimeout(resolve, 0); }); }

  function mount(canvas, options) {
    options = options || {};
    if (!(canvas instanceof HTMLCanvasElement)) return Promise.reject(new Error('KvPanels.mount: not a canvas'));
    var size, reply;
    // While kvwarm.js starts GL, the glyph atlas (2D canvases) and a first evaluation; then the mount, the canvas's
    // opening (WebGL, the first frame) and its handle. Each in a task of its own: the browser paints and takes input between.
    return Promise.all([load(options), webFonts()]).then(nextTask).then(function () {
      prepareCanvas(canvas);
      var ratio = measure(canvas);   // the glyph atlas, the larger part of a first mount: a face a task, then its build
      return (function face() { return kv.prepareFonts(ratio[2] / ratio[0]) || nextTask().then(face); })();
    }).then(nextTask).then(function () { primed = primed || !!ask('evaluate', '{}'); return gpuWarm; }).then(nextTask).then(function () {
      size = measure(canvas);
      reply = ask('panelMount', '#' + canvas.id, options.panel || 'admission', options.state ? JSON.stringify(options.state) : '',
                  size[0], size[1], size[2], size[3], size[4], size[5]);
      if (reply.error) throw mountError(reply);
      // The canvas opens (WebGL, the first frame) in a later task, a serving panel's once its first run landed.
      return new Promise(function (resolve, reject) {
        opening[reply.id] = function (failed) { return failed ? reject(mountError(failed)) : resolve(); };
      });
    }).then(function () {
      var id = reply.id;
      var panel = panels[id] = { canvas: canvas, listeners: [], hoverListeners: [], cleanup: [] };
      if (pendingHeights[id] !== undefined) applyHeight(canvas, pendingHeights[id]);   // in the task of its first frame
      delete pendingHeights[id];
      return nextTask().then(function () {
        watchCanvas(id, canvas, panel);
        var handle = makeHandle(id, canvas, panel, reply);
        if (window.KvTwin) KvTwin.attach(handle);   // the canvas's accessible twin and key-results strip
        return handle;
      });
    });
  }

  // A number formatted by core/base/format.hpp, by format name ('gib1', 'tokens_per_s', ...; see
  // formatValue in wasm/bindings.cpp), so the page's prose prints figures as the panels do.
  function format(value, formatName) {
    if (!kv) throw new Error('KvPanels.format: call KvPanels.load() first');
    return kv.formatValue(value, formatName);
  }

  // core's catalog_to_json, or one of its keys alone ('fields', 'defaults'...), asked once; a copy each.
  function catalog(part) {
    if (!kv) throw new Error('KvPanels.catalog: call KvPanels.load() first');
    var key = part ? String(part) : '';
    if (!(key in catalogTexts)) catalogTexts[key] = JSON.stringify(key ? ask('catalogPart', key) : ask('catalog'));
    return parse(catalogTexts[key]);
  }

  function evaluate(scenario) {
    if (!kv) throw new Error('KvPanels.evaluate: call KvPanels.load() first');
    return ask('evaluate', JSON.stringify(scenario || {}));
  }

  // The tools' module, once: beside the panels' module (a page that names its module has loaded it
  // by now: see the end of this file), else from this page's folder. A failed fetch is not kept, so
  // the next use tries again.
  function loadTools() {
    if (toolsPromise) return toolsPromise;
    toolsPromise = KvModules.load((moduleBase || '') + 'kvtools.js', 'kvtools');
    toolsPromise.catch(function () { toolsPromise = null; });
    return toolsPromise;
  }

  function askTools(verb, args) {
    return loadTools().then(function (tools) { return KvModules.answer(tools, verb, args); });
  }

  // A vLLM start-up log explained by the core (core/logs/log_explain.hpp): the scenario the log describes,
  // the assumptions made, and each logged number beside the model's. `given` (optional) supplies
  // what the log does not say, as scenario fields ({model: 'Qwen3-8B', gpu: 'L4'}).
  function explainLog(text, given) {
    return askTools('explainLog', [String(text == null ? '' : text), JSON.stringify(given || {})]);
  }

  // The flags that serve a load (core/plan/plan.hpp): `target` as `kvcache --plan` reads it; each
  // candidate carries the `vllm serve` command line, its margins and the scenario of one replica.
  function plan(target) { return askTools('planFlags', [jsonText(target === undefined ? {} : target)]); }

  // A serving run (core/serving/simulate.hpp): the scenario as evaluate() takes it and a workload
  // ({workload: 'chat', rate_per_s: 8, requests: 2000, ...}); the summary, or {error}.
  function simulate(scenario, workload) {
    if (!kv) throw new Error('KvPanels.simulate: call KvPanels.load() first');
    return ask('simulate', JSON.stringify(scenario || {}), jsonText(workload === undefined ? {} : workload));
  }

  // Test and measurement hooks: frames drawn, animation frames requested, CPU time per frame, heap.
  function drawStats() {
    if (!kv) return null;
    var stats = ask('drawStats');
    stats.wasm_heap_bytes = kv.HEAP8.length;   // the module's linear memory: it only ever grows
    return stats;
  }
  function resetDrawStats() { if (kv) kv.resetDrawStats(); }

  var api = { load: load, loaded: loaded, mount: mount, evaluate: evaluate, format: format, catalog: catalog, explainLog: explainLog,
              plan: plan, loadTools: loadTools, simulate: simulate, drawStats: drawStats, resetDrawStats: resetDrawStats };
  return api;
})();

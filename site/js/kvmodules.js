// KvModules: loads the page's two wasm modules and asks them. A classic script (module scripts are
// blocked on file://) that defines one global, used by kvpanels.js, which comes after it:
//
//   KvModules.load(url, name)          -> Promise<module>: runs the loader script at `url` (unless the
//                                         page already ran it) and instantiates it; name is 'kvcache'
//                                         (the panels' module) or 'kvtools' (the log explainer and the
//                                         planner, which the page asks for only on first use)
//   KvModules.answer(module, verb, args) -> the verb's JSON answer parsed, or {error} if the module stopped
//   KvModules.firstPaint()             -> Promise: resolves once the page has painted its first text
//   KvModules.warmGpu(base)            -> Promise: starts base + 'kvwarm.js'; resolves at its word
//
// Over http(s) a module's NAME.wasm is fetched and compiled as it streams in; from disk (file://), in
// a sandboxed frame or when the fetch fails, the same bytes come from NAME.wasm.js.
// No inline scripts, no eval: it runs under script-src 'self' 'wasm-unsafe-eval'.
var KvModules = (function () {
  'use strict';

  // Each module's factory (-sEXPORT_NAME) and the global its NAME.wasm.js sets to the bytes as base64
  // (wasm/inline_wasm.mjs).
  var MODULES = {
    kvcache: { factory: 'createKvModule', base64: 'KV_WASM_BASE64' },
    kvtools: { factory: 'createKvTools', base64: 'KV_TOOLS_WASM_BASE64' },
  };

  function loadScript(url) {
    return new Promise(function (resolve, reject) {
      document.head.appendChild(Object.assign(document.createElement('script'), { src: url, async: true,
        onload: resolve, onerror: function () { reject(new Error('KvPanels: could not load ' + url)); } }));
    });
  }

  function inlinedWasm(base, name) {
    var global = MODULES[name].base64;
    var ready = typeof window[global] === 'string' ? Promise.resolve() : loadScript(base + name + '.wasm.js');
    return ready.then(function () {
      var text = atob(window[global]);
      var bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      return bytes;
    });
  }

  // From disk fetch() cannot read the file; in a sandboxed frame (an opaque origin, self.origin
  // "null") it would need the server's CORS headers. Both take the script copy, which needs neither.
  function fromDisk() { return location.protocol === 'file:' || self.origin === 'null'; }

  function instantiate(base, name) {
    var factory = window[MODULES[name].factory];
    var inlined = function () {
      return inlinedWasm(base, name).then(function (bytes) { return factory({ wasmBinary: bytes }); });
    };
    if (fromDisk()) return inlined();
    return factory({ locateFile: function (file) { return base + file; } })
      .catch(function () { return inlined(); });
  }

  function load(url, name) {
    var base = url.slice(0, url.lastIndexOf('/') + 1);
    var ready = typeof window[MODULES[name].factory] === 'function' ? Promise.resolve() : loadScript(url);
    return ready.then(function () { return instantiate(base, name); });
  }

  // The text first: kvpanels.js fetches the panels' module (about 200 KB) once the page has painted
  // its first text, so on a slow connection it does not share the bandwidth the text, its stylesheet
  // and its fonts need. At most 2 s (a browser without paint timing, a tab in the background).
  var painted = null;
  function firstPaint() {
    if (painted) return painted;
    painted = new Promise(function (resolve) {
      setTimeout(resolve, 2000);
      try {
        var seen = function (entries) { return entries.some(function (e) { return e.name === 'first-contentful-paint'; }); };
        if (seen(performance.getEntriesByType('paint'))) return resolve();
        new PerformanceObserver(function (list, observer) {
          if (seen(list.getEntries())) { observer.disconnect(); resolve(); }
        }).observe({ type: 'paint', buffered: true });
      } catch (e) { resolve(); }
    });
    return painted;
  }

  // kvwarm.js (beside the module) takes the browser's first WebGL context in a worker while the
  // module downloads; the first mount waits for its word (at most 3 s), so no panel's getContext
  // waits on the main thread for the GPU process to start its GL. Not from disk or a sandboxed
  // frame, where a worker cannot start from a file, nor from another origin's folder.
  var warm = null;
  function warmGpu(base) {
    if (warm) return warm;
    warm = new Promise(function (resolve) {
      if (!window.Worker || !window.OffscreenCanvas || fromDisk()) return resolve();
      setTimeout(resolve, 3000);
      try {
        var worker = new Worker(base + 'kvwarm.js');
        worker.onmessage = worker.onerror = function () { resolve(); };
      } catch (e) { resolve(); }
    });
    return warm;
  }

  // The modules are built without C++ exceptions (a smaller download), so memory running out inside
  // one aborts it: the verb then answers a named error, as for bad input, and the page goes on.
  function answer(module, verb, args) {
    try { return JSON.parse(module[verb].apply(module, args)); } catch (e) {
      return { error: { field: 'module', code: 'internal_error', message: 'the module stopped (' + e.message + '); reload the page' } };
    }
  }

  return { load: load, answer: answer, firstPaint: firstPaint, warmGpu: warmGpu };
})();

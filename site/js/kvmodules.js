// KvModules: loads the page's two wasm modules and asks them. A classic script (module scripts are
// blocked on file://) that defines one global, used by kvpanels.js, which comes after it:
//
//   KvModules.load(url, name)          -> Promise<module>: runs the loader script at `url` (unless the
//                                         page already ran it) and instantiates it; name is 'kvcache'
//                                         (the panels' module) or 'kvtools' (the log explainer and the
//                                         planner, which the page asks for only on first use)
//   KvModules.answer(module, verb, args) -> the verb's JSON answer parsed, or {error} if the module stopped
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
  function instantiate(base, name) {
    var factory = window[MODULES[name].factory];
    var fromDisk = location.protocol === 'file:' || self.origin === 'null';
    var inlined = function () {
      return inlinedWasm(base, name).then(function (bytes) { return factory({ wasmBinary: bytes }); });
    };
    if (fromDisk) return inlined();
    return factory({ locateFile: function (file) { return base + file; } })
      .catch(function () { return inlined(); });
  }

  function load(url, name) {
    var base = url.slice(0, url.lastIndexOf('/') + 1);
    var ready = typeof window[MODULES[name].factory] === 'function' ? Promise.resolve() : loadScript(url);
    return ready.then(function () { return instantiate(base, name); });
  }

  // The modules are built without C++ exceptions (a smaller download), so memory running out inside
  // one aborts it: the verb then answers a named error, as for bad input, and the page goes on.
  function answer(module, verb, args) {
    try { return JSON.parse(module[verb].apply(module, args)); } catch (e) {
      return { error: { field: 'module', code: 'internal_error', message: 'the module stopped (' + e.message + '); reload the page' } };
    }
  }

  return { load: load, answer: answer };
})();

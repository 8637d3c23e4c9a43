// Test page glue: mounts the three panels and exposes what the test reads. Counts every
// requestAnimationFrame the page makes (the module's included) so the test can check idling.
(function () {
  'use strict';
  var test = (window.kvTest = { ready: false, handles: {}, changes: [], rafCalls: 0, error: null });
  var raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = function (cb) {
    test.rafCalls += 1;
    return raf(cb);
  };
  KvPanels.load({ moduleUrl: '/build/kvcache.js' })
    .then(function () {
      return Promise.all(['admission', 'phases', 'batching'].map(function (name) {
        return KvPanels.mount(document.getElementById(name), { panel: name, state: {} }).then(function (h) {
          test.handles[name] = h;
          h.onChange(function (state, result) {
            test.changes.push({ panel: name, prompt_tokens: state.prompt_tokens, running: result.running });
          });
        });
      }));
    })
    .then(function () { test.ready = true; })
    .catch(function (e) { test.error = String(e); console.error(e); });
})();

// A worker that takes one WebGL2 context, gives it back and says so (kvpanels.js starts it as the
// module loads, and mounts the first panel after its word). A browser's first WebGL context starts
// its GPU process's GL: hundreds of ms on a software renderer, tens on a GPU, and a canvas's
// getContext on the page waits for it on the main thread. Taken here first, off the main thread,
// the panel's own context then comes in a few ms (measured: 57-194 ms cold against 10-13 ms after
// this, SwiftShader).
(function () {
  'use strict';
  try {
    var gl = new OffscreenCanvas(1, 1).getContext('webgl2');
    var lose = gl && gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();   // not one of the page's contexts: browsers keep about sixteen
  } catch (e) { /* no WebGL2 in workers: the panels' own contexts start it */ }
  postMessage('ready');
  close();
})();

// The lesson's one script in its head, run before the body is parsed. It marks the page as
// scripted (the kv-js class the stylesheet's scripted-only rules name): added later by the deferred
// scripts, the class sent the browser through the whole 40,000-60,000 px page's style and layout a
// second time, in the task that ran them (a phone's total blocking time, Lighthouse mobile: median
// 200 ms over 14 loads, 142 ms over 20 with the class set here). Then it fetches the page's web
// fonts as soon as the page starts, not when the first layout finds text that needs them: a face
// that arrives after the stylesheet's brief wait (font-display: optional) made the lesson's first
// lines wrap again when it came (a layout shift of 0.12 on a phone). The list is the script tag's
// data-fonts. Only where the stylesheet's own request can use the preloaded copy: a font is fetched
// with CORS, which file:// copies and sandboxed frames (origin "null") refuse, so there the
// stylesheet asks alone and the metric-matched fallbacks draw.
(function () {
  'use strict';
  document.documentElement.classList.add('kv-js');
  var script = document.currentScript;
  if (!script || self.origin === 'null') return;
  (script.getAttribute('data-fonts') || '').split(/\s+/).filter(Boolean).forEach(function (href) {
    var link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'font';
    link.type = 'font/woff2';
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.appendChild(link);
  });
})();

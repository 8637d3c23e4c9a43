// SCORM 1.2 for course platforms (scripts/package adds this script to the package's index.html
// only). It looks for the platform's API object in the frames above the lesson, marks the lesson
// "incomplete" when opened and "completed" once the reader has reached its last section. Without
// a platform (an ordinary web page) it does nothing.
(function () {
  'use strict';
  function findApi() {
    let win = window;
    for (let depth = 0; depth < 10; depth++) {
      try { if (win.API && typeof win.API.LMSInitialize === 'function') return win.API; } catch (e) { return null; }
      if (!win.parent || win.parent === win) break;
      win = win.parent;
    }
    try { if (window.opener && window.opener.API) return window.opener.API; } catch (e) { /* another origin */ }
    return null;
  }
  const api = findApi();
  if (!api || String(api.LMSInitialize('')) !== 'true') return;
  let finished = false;
  const status = String(api.LMSGetValue('cmi.core.lesson_status'));
  if (status !== 'completed' && status !== 'passed') {
    api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
    api.LMSCommit('');
  }
  function complete() {
    if (finished) return;
    api.LMSSetValue('cmi.core.lesson_status', 'completed');
    api.LMSCommit('');
  }
  function finish() {
    if (finished) return;
    finished = true;
    api.LMSFinish('');
  }
  document.addEventListener('DOMContentLoaded', () => {
    const headings = document.querySelectorAll('main h2');
    const last = headings[headings.length - 1];
    if (!last || !('IntersectionObserver' in window)) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { complete(); seen.disconnect(); }
    });
    seen.observe(last);
  });
  window.addEventListener('pagehide', finish);
})();

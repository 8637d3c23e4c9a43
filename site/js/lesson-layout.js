// KvLayout: the lesson's panels on the page, for lesson.js. Each panel mounts as it comes within a
// screen of the viewport, so the wasm loads only when needed: an IntersectionObserver does it as the
// reader scrolls, and a check after scrolling stops catches a jump (a link, a restored scroll
// position) that skipped over a panel between two frames. On a wide screen a panel sticks beside
// its chapter's text. One taller than the window moves with the page until its far edge shows, then
// holds (scrolling down shows its bottom, scrolling up its top), so every part of it can be reached;
// a new scenario shows its top, where its header and knobs are. Only the sticky offset changes:
// nothing is redrawn. Each function takes lesson.js's panel records ({figure, tall}).
//   KvLayout.watch(panels, mount)                mounts each panel near the viewport, fits each
//                                                sticky panel now and as it or the window resizes
//   KvLayout.revealTop(panel)                    a tall panel shows its top
//   KvLayout.bringIntoView(panel, beforeScroll)  a panel the reader asked for: its top where it
//                                                stands, or the page scrolls to it (beforeScroll first)
var KvLayout = (function () {
  'use strict';

  var TOP = 16;
  var lastScrollY = 0;
  var reduceMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  function lowestTop(panel) { return Math.min(TOP, window.innerHeight - panel.figure.offsetHeight - TOP); }

  // Panels are measured all first and moved all after: a move between two measurements would make
  // the browser lay the whole page out again for the second (on a phone, tens of ms each).
  function fit(list) {
    var plans = list.map(function (panel) {
      var min = lowestTop(panel);
      var tall = min < TOP && getComputedStyle(panel.figure).position === 'sticky';
      return { panel: panel, min: min, tall: tall, top: tall ? Math.max(min, Math.min(TOP, parseFloat(panel.figure.style.top) || min)) : min };
    });
    plans.forEach(function (p) {
      p.panel.tall = p.tall;
      p.panel.figure.style.top = p.top + 'px';
      // Room after the chapter's text for a tall panel to slide in (lesson.css, .kv-chapter::after),
      // so its knobs can be brought back beside the text's last lines.
      p.panel.figure.parentElement.style.setProperty('--kv-overhang', p.tall ? TOP - p.min + 'px' : '0px');
    });
  }

  function revealTop(panel) {
    if (panel.tall) panel.figure.style.top = TOP + 'px';
  }

  function slide(panels) {
    var dy = window.scrollY - lastScrollY;
    lastScrollY = window.scrollY;
    if (!dy) return;
    var moves = Object.keys(panels).filter(function (id) { return panels[id].tall; }).map(function (id) {
      var panel = panels[id];
      var top = parseFloat(panel.figure.style.top) || TOP;
      return { panel: panel, top: top, next: Math.max(lowestTop(panel), Math.min(TOP, top - dy)) };
    });
    moves.forEach(function (m) { if (m.next !== m.top) m.panel.figure.style.top = m.next + 'px'; });
  }

  function fitAll(panels) {
    // Read at the next frame, not now: reading the scroll offset lays the page out, and the scripts
    // after this one change the page again, so that whole layout of the lesson was thrown away
    // (87 ms at 1,350 px in a trace; 400 ms at 412 px with 4x CPU slowdown in a profile).
    requestAnimationFrame(function () { lastScrollY = window.scrollY; });
    var all = Object.keys(panels).map(function (k) { return panels[k]; });
    if (window.ResizeObserver) {
      var sizes = new ResizeObserver(function (entries) {
        fit(entries.map(function (e) { return panels[e.target.getAttribute('data-panel')]; }));
      });
      all.forEach(function (panel) { sizes.observe(panel.figure); });
    }
    window.addEventListener('resize', function () { fit(all); });
  }

  function mountNear(panels, mount) {
    Object.keys(panels).forEach(function (kind) {
      var box = panels[kind].figure.getBoundingClientRect();
      if (box.bottom > -window.innerHeight && box.top < 2 * window.innerHeight) mount(panels[kind]);
    });
  }

  function watch(panels, mount) {
    fitAll(panels);
    var settle = null;
    window.addEventListener('scroll', function () {
      slide(panels);
      clearTimeout(settle);
      settle = setTimeout(function () { mountNear(panels, mount); }, 150);
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
  }

  function bringIntoView(panel, beforeScroll) {
    if (panel.tall) {
      // A sticky panel beside the text: show its top where it stands rather than scroll the page.
      revealTop(panel);
      var shown = panel.figure.getBoundingClientRect();
      if (shown.bottom > 0 && shown.top < window.innerHeight) return;
    }
    var box = panel.figure.getBoundingClientRect();
    var fits = box.top >= 0 && box.bottom <= window.innerHeight;
    if (!fits) {
      beforeScroll(reduceMotion);
      panel.figure.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'nearest' });
    }
  }

  return { watch: watch, revealTop: revealTop, bringIntoView: bringIntoView };
})();

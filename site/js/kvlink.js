// KvLink: linked reading between the lesson's prose and the panel beside it. A coloured concept
// word ([weights]{.weights} in the Markdown: <span class="kv-concept" data-concept="weights">),
// hovered or focused, emphasises that concept's parts of the panel (handle.highlight); the pointer
// over a concept's part of the canvas marks the matching words (class is-linked). Nothing here runs
// on scroll, and the panel redraws only when the highlight changes.
//   KvLink.attach(figure, handle) -> detach(); lesson.js calls it when a panel mounts.
// A word belongs to the panel of its chapter, or else to the last panel before it on the page (a
// panel serves the sections that follow it until the next one).
var KvLink = (function () {
  'use strict';

  var DESCRIPTION_ID = 'kv-link-description';

  // One hidden sentence every word points at (aria-describedby): what focusing it does.
  function describedBy() {
    if (!document.getElementById(DESCRIPTION_ID)) {
      var note = document.createElement('span');
      note.id = DESCRIPTION_ID;
      note.hidden = true;
      note.textContent = 'Highlights this part of the panel beside the text.';
      document.body.appendChild(note);
    }
    return DESCRIPTION_ID;
  }

  function ownerOf(span, lastPanel) {
    var chapter = span.closest('.kv-chapter');
    return (chapter && chapter.querySelector('figure.kv-panel')) || lastPanel;
  }

  function wordsOf(figure) {
    var words = [];
    var lastPanel = null;
    Array.prototype.forEach.call(document.querySelectorAll('figure.kv-panel, .kv-concept[data-concept]'), function (el) {
      if (el.matches('figure.kv-panel')) lastPanel = el;
      else if (ownerOf(el, lastPanel) === figure) words.push(el);
    });
    return words;
  }

  function attach(figure, handle) {
    var words = wordsOf(figure);
    var shown = null;   // the word whose concept the panel emphasises
    var off = [];
    var on = function (el, type, fn) {
      el.addEventListener(type, fn);
      off.push(function () { el.removeEventListener(type, fn); });
    };
    words.forEach(function (word) {
      word.tabIndex = 0;
      word.setAttribute('aria-describedby', describedBy());
      var show = function () {
        shown = word;
        handle.highlight(word.getAttribute('data-concept'));
      };
      var hide = function () {
        if (shown !== word) return;
        shown = null;
        handle.highlight(null);
      };
      on(word, 'mouseenter', show);
      on(word, 'focus', show);
      on(word, 'mouseleave', function () { if (document.activeElement !== word) hide(); });
      on(word, 'blur', hide);
    });
    off.push(handle.onHover(function (concept) {
      words.forEach(function (word) { word.classList.toggle('is-linked', word.getAttribute('data-concept') === concept); });
    }));
    return function () { off.forEach(function (f) { f(); }); };
  }

  return { attach: attach };
})();

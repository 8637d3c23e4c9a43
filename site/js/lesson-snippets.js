// KvSnippets: the lesson's embed snippets (the generator's {{embed KIND SCENARIO}}), for lesson.js:
// each shows the iframe and kvembed-host.js a course author pastes, and follows the state the reader
// gives the panel of its kind; a Copy button copies it.
//   KvSnippets.attach(main)                        -> the snippets, their Copy buttons shown and wired
//   KvSnippets.update(snippets, kind, state, defaults)  each snippet's code for that panel state
//   KvSnippets.copyOnClick(button, code)           copies `code`'s text on a click (KvLesson.copyOnClick)
var KvSnippets = (function () {
  'use strict';

  // As the generator's (site/generator/page/elements.cpp): no height, kvembed-host.js fits the frame.
  function snippetCode(kind, state, defaults) {
    return '<iframe data-kv-embed src="kv/embed.html?' + KvState.toQuery(kind, state, defaults) +
      '" title="KV cache panel" style="width:100%;border:0"></iframe>\n<script src="kv/js/kvembed-host.js"></script>';
  }

  function update(snippets, kind, state, defaults) {
    snippets.forEach(function (s) {
      s.querySelector('code').textContent = snippetCode(kind, state, defaults);
    });
  }

  // Copies `code`'s text on a click, or selects it where the clipboard is refused; the button
  // says which for two seconds. The snippets here and the planner's command lines use it.
  function copyOnClick(button, code) {
    var label = button.textContent;
    button.addEventListener('click', function () {
      var done = function (ok) {
        button.textContent = ok ? 'Copied' : 'Selected: press Ctrl+C';
        setTimeout(function () { button.textContent = label; }, 2000);
      };
      var select = function () {
        var range = document.createRange();
        range.selectNodeContents(code);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        done(false);
      };
      if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(code.textContent).then(function () { done(true); }, select);
      else select();
    });
  }

  function attach(main) {
    var snippets = Array.prototype.slice.call(main.querySelectorAll('.kv-snippet'));
    snippets.forEach(function (s) {
      var button = s.querySelector('.kv-snippet__copy');
      if (!button) return;
      button.hidden = false;
      copyOnClick(button, s.querySelector('code'));
    });
    return snippets;
  }

  return { attach: attach, update: update, copyOnClick: copyOnClick };
})();

// "Set this up" buttons ({{setup NAME}} in the lesson's Markdown): an instruction that asks for a
// state the reader may not be in carries one. A click shows the instruction's scenario in the
// chapter's panel as the reader's own (as a knob does: lesson.js's knobMoved) and says beside the
// button what changed there. Without scripting the button stays hidden and the sentence reads on.
(function () {
  'use strict';

  var lesson = window.KvLesson;
  var buttons = document.querySelectorAll('button.kv-setup[data-setup]');
  if (!lesson || !buttons.length || !window.KvPanels || !window.KvPanelHead) return;
  var base = JSON.parse(document.getElementById('lesson').getAttribute('data-base') || '{}');

  function setUp(button, note) {
    var handle = lesson.panels[button.getAttribute('data-panel')];
    var before = handle ? handle.getState() : base;
    var state = lesson.scenarioWithOwn(button.getAttribute('data-setup'));
    lesson.knobMoved(button, state);
    var changes = KvPanelHead.differences(before, state);
    // A parenthesis, as it stands inside the instruction's sentence.
    note.textContent = changes.length ? '(the panel now has ' + changes.join(', ') + ')' : '(the panel already had it)';
  }

  Array.prototype.forEach.call(buttons, function (button) {
    var note = document.createElement('span');
    note.className = 'kv-setup__note';
    note.setAttribute('role', 'status');
    button.insertAdjacentElement('afterend', note);
    button.hidden = false;
    button.addEventListener('click', function () { setUp(button, note); });
  });
})();

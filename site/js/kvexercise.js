// Predict-then-check exercises (the generator's {{exercise}} directive). Each is baked as a
// question, a form and a <details> that holds the core's answer, so it reads without this script
// and in print. This script shows the form (its space is kept while hidden, so nothing moves),
// compares the reader's number with the answer, says how close it is in a live region, then opens
// the answer. The answer's number and unit come from the page (data-answer, data-unit), and so does
// the value the question starts from where it asks for a change (data-unchanged, data-unchanged-text):
// a guess nearer that than the answer is never right, however close the two are. The verdict quotes
// the reader's own text and the core's formatted figures, so no number is formatted here.
(function () {
  'use strict';

  var RIGHT = 0.10;   // within 10% of the core's value counts as right
  var CLOSE = 0.25;

  // "1,234", "144 KiB" or "3.2x" as a number; NaN when it is none, as "1,0,0" or "12,34" are
  // (a comma only groups thousands).
  function readNumber(text) {
    var t = String(text).trim();
    var match = t.match(/^[-+]?(\d{1,3}(,\d{3})+(\.\d*)?|\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/);
    if (!match || /^[,.\d]/.test(t.slice(match[0].length))) return NaN;
    return Number(match[0].replace(/,/g, ''));
  }

  // The verdict for a prediction, as a sentence: {right, message}. `unchanged` (with its text) is
  // the starting value of a question that asks for a change, or NaN for one that does not.
  function verdict(guessText, answer, answerText, unchanged, unchangedText) {
    var guess = readNumber(guessText);
    if (!isFinite(guess)) return { right: null, message: 'Type a number first, then press Check.' };
    var yours = 'your ' + guessText.trim();
    var error = answer === 0 ? Math.abs(guess) : Math.abs(guess - answer) / Math.abs(answer);
    if (isFinite(unchanged) && Math.abs(guess - unchanged) <= Math.abs(guess - answer))
      return { right: false, message: 'Not quite: ' + yours + ' is nearer the starting ' + unchangedText +
        ' than the model\u2019s ' + answerText + '; the change does move it.' };
    if (error <= RIGHT) return { right: true, message: 'Right: ' + yours + ' is within 10% of the model\u2019s ' + answerText + '.' };
    var side = guess > answer ? 'high' : 'low';
    var far = guess > 2 * answer || guess < answer / 2;
    var how = error <= CLOSE ? 'close, but more than 10% ' + side
      : far ? 'off by more than a factor of two, too ' + side : 'more than 25% too ' + side;
    return { right: false, message: 'Not quite: ' + yours + ' is ' + how + '; the model says ' + answerText + '.' };
  }

  function setUp(section) {
    var form = section.querySelector('.kv-exercise__check');
    var details = section.querySelector('.kv-exercise__answer');
    var figure = details && details.querySelector('.kv-fig');
    if (!form || !figure) return;
    var input = form.querySelector('input');
    var out = form.querySelector('.kv-exercise__verdict');
    var answer = Number(form.getAttribute('data-answer'));
    var unchanged = form.hasAttribute('data-unchanged') ? Number(form.getAttribute('data-unchanged')) : NaN;
    var unchangedText = form.getAttribute('data-unchanged-text') || '';
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var v = verdict(input.value, answer, figure.textContent, unchanged, unchangedText);
      out.textContent = v.message;
      out.setAttribute('data-right', v.right === null ? '' : String(v.right));
      if (v.right !== null) details.open = true;   // the worked answer, once a prediction is in
    });
    section.classList.add('kv-exercise--ready');
  }

  Array.prototype.forEach.call(document.querySelectorAll('.kv-exercise'), setUp);
  window.KvExercise = { verdict: verdict, readNumber: readNumber };
})();

// Every instruction of the lesson can be followed where it is read (issue 24, point 2). The test
// finds the instructions itself, from the text and not from the markup that answers them: a
// sentence of the reading text (exercises excluded: they ask for a prediction, not a state) that
// opens with an imperative verb, after an optional "Now", "Then" or "Back on …,", and names
// something to act on (a knob of the chapter's panel in quotes, a model or GPU of the catalog, or
// a control inside the sentence). Each is listed with the control it carries: a "set this up"
// button or a number to drag. setup.test.mjs and knobs.test.mjs perform those controls and compare
// the figures the sentences promise; this test checks that the lesson leaves no instruction
// without one, and that each control sits in the instruction it serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchErrors, useSite, saveArtifact } from './harness.mjs';

const site = useSite();

const VERBS = ['set', 'move', 'tick', 'untick', 'cut', 'raise', 'lower', 'shrink', 'stretch', 'give', 'drag', 'switch',
  'press', 'play', 'choose', 'pick', 'try', 'go', 'turn', 'put', 'make', 'change', 'double', 'halve', 'push', 'slide',
  'select', 'shard', 'split', 'spread', 'add', 'increase', 'decrease', 'reduce', 'take', 'load', 'paste', 'click', 'compare', 'drop', 'widen', 'open'];

// Sentences of each reading paragraph, each with the controls and text it holds. Figures, knobs
// and buttons are elements, so a decimal point inside a figure never splits a sentence.
function sentencesOfLesson(verbs) {
  const out = [];
  const chapters = document.querySelectorAll('.kv-chapter[data-panel]');
  const catalog = window.KvPanels.catalog();
  const names = catalog.models.concat(catalog.gpus).map((m) => m.id);
  for (const chapter of chapters) {
    const blocks = Array.from(chapter.querySelectorAll('p, li')).filter((el) => !el.closest('.kv-exercise, figure, .kv-custom, nav'));
    for (const block of blocks) {
      let current = { text: '', controls: [] };
      const sentences = [current];
      const walk = (node) => {
        for (const child of node.childNodes) {
          if (child.nodeType === Node.TEXT_NODE) {
            const parts = child.textContent.split(/(?<=[.!?])\s+(?=[A-Z“"])/);
            parts.forEach((part, i) => {
              if (i > 0) sentences.push(current = { text: '', controls: [] });
              current.text += part;
            });
          } else if (child.nodeType === Node.ELEMENT_NODE) {
            if (child.matches('button.kv-setup')) current.controls.push({ kind: 'set this up', name: child.dataset.setup });
            else if (child.matches('.kv-setup__note')) continue;
            else if (child.matches('.kv-knob[data-knob]')) {
              current.controls.push({ kind: 'knob', name: child.dataset.knob });
              current.text += child.textContent;
            } else if (child.matches('.kv-fig, dfn, abbr, code, em, strong, span, a, sup')) current.text += child.textContent;
            else walk(child);
          }
        }
      };
      walk(block);
      for (const s of sentences) {
        const text = s.text.replace(/\s+/g, ' ').trim();
        const bare = text.replace(/^(Now|Then|First|Next),? /, '').replace(/^Back (on|to) [^,]+, /, '');
        const verb = (bare.match(/^[A-Za-z]+/) || [''])[0].toLowerCase();
        if (!verbs.includes(verb)) continue;
        const quoted = Array.from(text.matchAll(/[“"]([^”"]{1,60})[”"]/g), (m) => m[1]);
        const named = names.some((n) => text.includes(n));
        if (!quoted.length && !named && !s.controls.length) continue;
        out.push({ chapter: chapter.dataset.panel, text, controls: s.controls });
      }
    }
  }
  return out;
}

test('every instruction of the reading text carries the control that performs it (≥ 95%, listed)', { timeout: 120000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${site.server.url}/`);
  await page.waitForFunction(() => { try { return window.KvPanels.catalog().models.length > 0; } catch (e) { return false; } }, null, { timeout: 60000 });
  const instructions = await page.evaluate(sentencesOfLesson, VERBS);
  const listing = instructions.map((i) => `${i.controls.length ? i.controls.map((c) => `[${c.kind}: ${c.name}]`).join(' ') : '[none]'} ${i.text}`);
  saveArtifact('instructions.txt', listing.join('\n') + '\n');
  const covered = instructions.filter((i) => i.controls.length > 0);
  console.log(`instructions: ${covered.length} of ${instructions.length} carry a control\n  ${listing.join('\n  ')}`);
  assert.ok(instructions.length >= 12, `${instructions.length} instructions found; the lesson asks the reader to move its knobs more often than that`);
  assert.ok(covered.length >= 0.95 * instructions.length,
    `${covered.length} of ${instructions.length} instructions carry a control; without one:\n${instructions.filter((i) => !i.controls.length).map((i) => i.text).join('\n')}`);
  // Every control of the page is in an instruction the test found: none is orphaned in a sentence
  // that asks nothing, and none is missed by the search above.
  const placed = await page.evaluate(() => Array.from(document.querySelectorAll('button.kv-setup, .kv-knob[data-knob]'),
    (el) => el.dataset.setup || el.dataset.knob));
  const found = instructions.flatMap((i) => i.controls.map((c) => c.name));
  assert.deepEqual(found.slice().sort(), placed.slice().sort(), 'every set-up button and inline knob sits in an instruction');
  assert.deepEqual(errors, []);
  await page.close();
});

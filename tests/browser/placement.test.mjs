// Each panel sits beside the text that uses it (issue 14, point 1): a reader never scrolls to
// another section to follow an instruction. For every chapter of the lesson (its text and the panel
// beside it), every knob the prose names, by its on-panel label in quotes, is one that panel draws
// (handle.knobs(), which the module derives from the table the canvas draws from), and every bound
// figure of the chapter that reads a scenario belongs to that panel (a click loads it there; a fact
// about vLLM, such as its block size, has no scenario to load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchErrors, useSite, runsLanded } from './harness.mjs';

const site = useSite();

test('every knob a chapter names is drawn by the panel beside it', async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${site.server.url}/index.html`);
  // Mount every panel: bring each into view in turn.
  const ids = await page.$$eval('figure.kv-panel', (figures) => figures.map((f) => f.getAttribute('data-panel')));
  for (const id of ids) {
    await page.$eval(`#panel-${id}`, (f) => f.scrollIntoView());
    await page.waitForFunction((i) => window.KvLesson.panels[i], id, { timeout: 60000 });
  }
  const chapters = await page.evaluate(() => {
    const knobsOf = (id) => window.KvLesson.panels[id].knobs().map((k) => ({ field: k.field, label: k.label }));
    return Array.from(document.querySelectorAll('.kv-chapter[data-panel]')).map((chapter) => {
      const panel = chapter.getAttribute('data-panel');
      const prose = Array.from(chapter.children).filter((el) => !el.matches('figure.kv-panel'));
      const text = prose.map((el) => el.textContent).join('\n');
      return {
        panel,
        heading: (chapter.querySelector('h2') || {}).textContent || '(the introduction)',
        knobs: knobsOf(panel),
        quoted: Array.from(text.matchAll(/[“"]([^”"\n]{1,60})[”"]/g), (m) => m[1].trim()),
        figurePanels: prose.flatMap((el) => Array.from(el.querySelectorAll('.kv-fig[data-scenario-name]'), (f) => f.getAttribute('data-panel'))),
      };
    });
  });
  const allLabels = new Set(chapters.flatMap((c) => c.knobs.map((k) => k.label.toLowerCase())));
  assert.ok(allLabels.has('prompt tokens') && allLabels.has('force multi-head attention'), 'the panels name their knobs');
  let named = 0;
  for (const c of chapters) {
    const here = new Set(c.knobs.map((k) => k.label.toLowerCase()));
    for (const q of c.quoted.map((s) => s.toLowerCase()).filter((s) => allLabels.has(s))) {
      named++;
      assert.ok(here.has(q), `"${c.heading}" names the knob "${q}", which the panel beside it (${c.panel}) does not draw`);
    }
    for (const p of c.figurePanels) assert.equal(p, c.panel, `a figure in "${c.heading}" loads into panel ${p}, not the one beside it`);
  }
  assert.ok(named >= 5, `the prose names ${named} knobs by their labels; a lesson that asks the reader to move knobs names them`);
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 24, point 4: beside each section the panel draws first what the section uses (the knobs it
// names, drags or sets up, and the parts that show the results it quotes: lesson-sections.js'
// focusOf), the rest under "All controls and results", closed. At 1280×800 the panel sticks beside
// the text; this measures, for every section, where that first part ends below the panel's top (its
// header included) and checks that every knob the section uses is drawn inside it.
test('beside each section at 1280×800 the panel draws the section\'s knobs and results first, within one window', async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${site.server.url}/index.html`);
  await page.waitForFunction(() => window.KvLesson && window.KvLesson.sections.length > 0);
  const count = await page.evaluate(() => window.KvLesson.sections.length);
  const ends = [];
  for (let i = 0; i < count; i++) {
    await page.evaluate((index) => {
      const el = window.KvLesson.sections[index].start;
      window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight / 3 + 4);
    }, i);
    await page.waitForFunction((index) => window.KvLesson.reading === index &&
      window.KvLesson.panels[window.KvLesson.sections[index].panel], i, { timeout: 60000 });
    await runsLanded(page);
    await page.waitForTimeout(400);
    const seen = await page.evaluate((index) => {
      const s = window.KvLesson.sections[index];
      const h = window.KvLesson.panels[s.panel];
      const focus = KvSections.focusOf(s, h.knobs(), window.KvLesson.scenarios);
      const fields = h.knobs().filter((k) => k.drawn).map((k) => k.field);
      const layout = h.layout(), bottom = h.focusBottom();
      const figure = document.getElementById(`panel-${s.panel}`).getBoundingClientRect();
      const canvas = h.canvas.getBoundingClientRect();
      return { panel: s.panel, scenario: s.scenario, bottom, canvas: canvas.height, end: canvas.top - figure.top + bottom,
        knobs: focus.knobs.filter((f) => fields.includes(f)).map((f) => ({ f, rect: layout[f] || null })) };
    }, i);
    for (const k of seen.knobs) {
      assert.ok(k.rect, `section ${i} (${seen.scenario}) names "${k.f}", which its panel does not draw first`);
      assert.ok(k.rect[1] + k.rect[3] <= seen.bottom + 1, `section ${i}: "${k.f}" drawn below the section's part`);
    }
    assert.ok(seen.bottom <= seen.canvas + 1, `section ${i}: the first part ends inside the canvas`);
    ends.push({ section: i, panel: seen.panel, scenario: seen.scenario, end: Math.round(seen.end) });
  }
  // Every section: a read goes to the part that names it most closely, or to one the section
  // already draws that shows it too (wasm/ui/parts.cpp).
  const over = ends.filter((e) => e.end > 800);
  assert.deepEqual(over, [], `within 800 px: ${ends.length - over.length} of ${ends.length}`);
  assert.deepEqual(errors, []);
  await page.close();
});

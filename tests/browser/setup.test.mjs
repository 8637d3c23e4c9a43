// Instructions followed literally (issue 24, point 2): each "set this up" button of the lesson
// ({{setup NAME}}, site/js/lesson-setup.js) puts the chapter's panel in the instruction's scenario,
// says what it changed, and the panel then shows every figure its sentence promises for that
// scenario, read from the panel's own result and formatted by the core. Without scripting the
// buttons stay hidden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchErrors, useSite } from './harness.mjs';

const site = useSite();

// The figures of the button's sentence that read its scenario alone, with what the panel now says.
function promised(i) {
  const button = document.querySelectorAll('button.kv-setup')[i];
  const name = button.dataset.setup;
  const handle = window.KvLesson.panels[button.dataset.panel];
  const result = handle.result();
  const valueAt = (p) => p.split('.').reduce((o, k) => (o == null ? undefined : o[k]), result);
  return Array.from(button.closest('p, li').querySelectorAll('.kv-fig'))
    .filter((f) => f.dataset.expr.startsWith(name + '.') && /^[A-Za-z0-9_.]+$/.test(f.dataset.expr))
    .map((f) => {
      const value = valueAt(f.dataset.expr.slice(name.length + 1));
      return { expr: f.dataset.expr, printed: f.textContent,
        shown: value === undefined ? null : f.dataset.format === 'text' ? String(value) : window.KvPanels.format(value, f.dataset.format) };
    });
}

test('every "set this up" button puts its panel in the instruction\'s state, and the panel shows what the sentence promises', { timeout: 240000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${site.server.url}/`);
  const count = await page.locator('button.kv-setup').count();
  assert.ok(count >= 9, `${count} set-up buttons`);
  await page.waitForFunction((n) => Array.from(document.querySelectorAll('button.kv-setup')).filter((b) => !b.hidden).length === n, count, { timeout: 60000 });
  let compared = 0;
  for (let i = 0; i < count; ++i) {
    const button = page.locator('button.kv-setup').nth(i);
    const { name, panel } = await button.evaluate((b) => ({ name: b.dataset.setup, panel: b.dataset.panel }));
    await button.scrollIntoViewIfNeeded();
    await page.waitForFunction((k) => window.KvLesson.panels[k], panel, { timeout: 60000 });
    await button.click();
    await page.waitForFunction(([k, n]) => window.KvState.sameScenario(window.KvLesson.scenarioWithOwn(n), window.KvLesson.panels[k].getState()),
      [panel, name], { timeout: 60000 });
    const note = await button.evaluate((b) => b.nextElementSibling.textContent);
    assert.match(note, /^\(the panel (now has .+|already had it)\)$/, name);
    // Scrolling on through the section keeps the reader's state (lesson.js pins it to the section).
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(250);
    assert.ok(await page.evaluate(([k, n]) => window.KvState.sameScenario(window.KvLesson.scenarioWithOwn(n), window.KvLesson.panels[k].getState()),
      [panel, name]), `${name}: the panel kept the set-up state`);
    for (const f of await page.evaluate(promised, i)) {
      if (f.shown === null) continue;  // a figure of the simulation's summary, which the panel result does not carry
      assert.equal(f.shown, f.printed, `${name}: ${f.expr}`);
      compared++;
    }
  }
  console.log(`set-up: ${count} buttons, ${compared} promised figures compared`);
  assert.ok(compared >= count, `${compared} promised figures compared`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('without scripting the set-up buttons stay hidden', async () => {
  const context = await site.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${site.server.url}/`);
  assert.equal(await page.locator('button.kv-setup:visible').count(), 0);
  await context.close();
});

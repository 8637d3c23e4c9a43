// Numbers in the sentence the reader drags (site/js/lesson-knobs.js): every knob of the lesson is a
// keyboard slider over its field's stops; moving it recomputes its paragraph's figures of that
// scenario, each checked here against the core's own result for the moved scenario (the figure's
// arithmetic evaluated in Node, not by the page's code), shows the scenario in the chapter's panel,
// and Escape gives the printed text back. A drag moves a stop per 12 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launchBrowser, watchErrors, root } from './harness.mjs';

let server, browser;

before(async () => {
  server = await serve({ '/': path.join(root, 'build/site') });
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

// The figures of a knob's paragraph, with what each should read for the knob's current value.
async function paragraph(page, index) {
  const seen = await page.evaluate((i) => {
    const knob = document.querySelectorAll('.kv-knob')[i];
    const name = knob.dataset.scenarioName, field = knob.dataset.knob;
    const state = window.KvLesson.scenarioWithOwn(name);
    // A number's slider reads its value; a choice's, the index of its choice in the catalog's row.
    const row = window.KvPanels.catalog().fields[field], now = Number(knob.getAttribute('aria-valuenow'));
    state[field] = row.choices ? row.choices[now].value : now;
    const results = {};
    const figures = Array.from(knob.closest('p, li').querySelectorAll('.kv-fig')).filter((f) => f !== knob)
      .filter((f) => JSON.parse(f.dataset.refs).some((r) => r.split('.')[0] === name))
      .map((f) => {
        for (const ref of JSON.parse(f.dataset.refs)) {
          const scenario = ref.split('.')[0];
          results[scenario] ??= window.KvPanels.evaluate(scenario === name ? state : window.KvLesson.scenarioWithOwn(scenario));
        }
        return { text: f.textContent, printed: f.dataset.printed, expr: f.dataset.expr, format: f.dataset.format };
      });
    return { figures, results, value: state[field], text: knob.textContent, valuetext: knob.getAttribute('aria-valuetext') };
  }, index);
  for (const f of seen.figures) {
    const at = (ref) => ref.split('.').slice(1).reduce((o, k) => o?.[k], seen.results[ref.split('.')[0]]);
    const js = f.expr.replace(/[A-Za-z_][A-Za-z0-9_.]*/g, (ref) => `at(${JSON.stringify(ref)})`);
    // eslint-disable-next-line no-new-func
    f.value = new Function('at', `return (${js});`)(at);
    // A figure with no finite value (a ratio over an engine that refuses) shows a dash.
    f.expected = f.format === 'text' ? String(f.value) : !Number.isFinite(f.value) ? '\u2014'
      : await page.evaluate(([v, fmt]) => window.KvPanels.format(v, fmt), [f.value, f.format]);
  }
  return seen;
}

test('every knob in the lesson is a slider whose paragraph follows it, with the panel; Escape gives the text back', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  try {
    await page.goto(`${server.url}/`);
    const count = await page.locator('.kv-knob').count();
    assert.ok(count >= 4, `${count} knobs`);
    await page.waitForFunction((n) => document.querySelectorAll('.kv-knob[role="slider"]').length === n, count, { timeout: 60000 });
    for (let i = 0; i < count; ++i) {
      const knob = page.locator('.kv-knob').nth(i);
      const printed = await paragraph(page, i);
      assert.equal(printed.valuetext, printed.text, 'the slider says the value it shows');
      assert.ok(printed.figures.length >= 1, `knob ${i} moves at least one figure`);
      for (const f of printed.figures) assert.equal(f.text, f.printed);

      await knob.scrollIntoViewIfNeeded();
      await knob.focus();
      const max = Number(await knob.getAttribute('aria-valuemax'));
      // Step away from the text's value until the paragraph reads differently (a bound may hold
      // over a few stops), each step's figures as the core computes them.
      let moved;
      for (let step = 0; step < 24; ++step) {
        await page.keyboard.press(printed.value >= max ? 'ArrowLeft' : 'ArrowRight');
        moved = await paragraph(page, i);
        for (const f of moved.figures) assert.equal(f.text, f.expected, `${f.expr} at ${moved.value}`);
        if (moved.figures.some((f) => f.text !== f.printed)) break;
      }
      assert.notEqual(moved.value, printed.value, `knob ${i} moved`);
      // A setting the engine will not run is said beside the paragraph, as the engine says it.
      const refused = await page.evaluate((k) => {
        const knob = document.querySelectorAll('.kv-knob')[k];
        return { invalid: knob.getAttribute('aria-invalid'), note: document.getElementById(knob.getAttribute('aria-describedby')).textContent };
      }, i);
      const status = moved.results[await knob.getAttribute('data-scenario-name')].status;
      assert.equal(refused.invalid === 'true', status !== 'ok', `knob ${i}: marked invalid exactly when the engine refuses (${status})`);
      if (status !== 'ok') assert.match(refused.note, /max_model_len|out of memory|refuse|KV cache/i);
      else assert.equal(refused.note, '');
      assert.ok(moved.figures.some((f) => f.text !== f.printed), `knob ${i}: some figure of its paragraph changed`);

      // The chapter's panel shows the knob's scenario once it has mounted.
      const panelId = await knob.getAttribute('data-panel');
      const field = await knob.getAttribute('data-knob');
      await page.evaluate((id) => document.getElementById('panel-' + id).scrollIntoView(), panelId);
      await page.waitForFunction((id) => window.KvLesson.panels[id], panelId, { timeout: 60000 });
      await knob.scrollIntoViewIfNeeded();
      await knob.focus();
      await page.keyboard.press(printed.value >= max ? 'ArrowLeft' : 'ArrowRight');
      const again = await paragraph(page, i);
      await page.waitForFunction(([id, f, v]) => window.KvLesson.panels[id].getState()[f] === v, [panelId, field, again.value], { timeout: 5000 })
        .catch(async (e) => {
          const seen = await page.evaluate(([id, f]) => window.KvLesson.panels[id].getState()[f], [panelId, field]);
          throw new Error(`knob ${i}: panel ${panelId} shows ${field} ${seen}, the knob ${again.value} (${e.message})`);
        });

      await page.keyboard.press('Escape');
      const back = await paragraph(page, i);
      assert.equal(back.value, printed.value);
      assert.equal(back.text, printed.text);
      for (const f of back.figures) assert.equal(f.text, f.printed);
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a drag moves the knob a stop per 12 px, and the paragraph follows', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('.kv-knob[role="slider"]', { timeout: 60000 });
    const knob = page.locator('.kv-knob').first();
    await knob.scrollIntoViewIfNeeded();
    const printed = await paragraph(page, 0);
    const box = await knob.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 37, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const dragged = await paragraph(page, 0);
    const stops = await page.evaluate(() => window.KvPanels.catalog().fields.prompt_tokens.stops.map((s) => s.value));
    assert.equal(stops.indexOf(printed.value) - stops.indexOf(dragged.value), 3);
    for (const f of dragged.figures) assert.equal(f.text, f.expected);
  } finally {
    await page.close();
  }
});

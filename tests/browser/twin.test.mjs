// The panels' accessible twin (site/js/kvtwin.js): native controls that share each canvas panel's
// state, the key-results strip beside them, and the badge for a field no knob of the panel shows.
// (a) keyboard only on embed.html; (b) one labelled control per knob of every lesson panel, updated
// from the canvas side; (c) every knob changed at a desktop and a phone size with the strip on
// screen showing the core's figures; (d) the badge for force_mha in the two-phases panel and its undo.
// axe-core over the same markup is a11y.test.mjs.
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

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

async function openLesson(viewport) {
  const page = await browser.newPage({ viewport });
  const errors = watchErrors(page);
  await page.goto(`${server.url}/`);
  // Scroll through the page so every panel comes near the viewport and mounts.
  const height = await page.evaluate(() => document.body.scrollHeight);
  for (let y = 0; y < height; y += 700) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(40);
  }
  for (const kind of ['admission', 'phases', 'batching', 'serving'])
    await page.waitForFunction((k) => window.KvLesson && window.KvLesson.panels[k], kind, { timeout: 60000 });
  return { page, errors };
}

// Where the strip of panel `id` is, the key results it shows and the core's text for them now.
const stripOf = (page, id) => page.evaluate((i) => {
  const figure = document.querySelector(`figure[data-panel="${i}"]`);
  const box = figure.querySelector('.kv-twin__strip').getBoundingClientRect();
  return { top: box.top, bottom: box.bottom, height: window.innerHeight,
           shown: Array.from(figure.querySelectorAll('.kv-twin__results dd')).map((dd) => dd.firstChild.textContent),
           bands: Array.from(figure.querySelectorAll('.kv-twin__results dd')).map((dd) => {
             const band = dd.querySelector('.kv-twin__band');
             return band ? band.textContent.trim() : '';
           }),
           core: window.KvLesson.panels[i].keyResults().map((r) => r.text),
           kinds: window.KvLesson.panels[i].keyResults().map((r) => r.kind),
           accuracy: JSON.parse(document.querySelector('[data-accuracy]').getAttribute('data-accuracy')) };
}, id);

test('keyboard only: the disclosure, the prompt tokens slider and the strip on embed.html', async () => {
  const page = await browser.newPage({ viewport: desktop });
  const errors = watchErrors(page);
  await page.goto(`${server.url}/embed.html?panel=admission`);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  const before = await page.evaluate(() => window.KvEmbed.handle.getState().prompt_tokens);

  const focused = () => page.evaluate(() => {
    const e = document.activeElement;
    return e ? (e.labels && e.labels[0] ? e.labels[0].textContent : e.tagName.toLowerCase()) : '';
  });
  let steps = 0;
  while ((await focused()) !== 'summary' && steps++ < 20) await page.keyboard.press('Tab');
  assert.equal(await focused(), 'summary', 'Tab reaches the "Controls as a form" disclosure');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.querySelector('details.kv-twin').open), true);
  steps = 0;
  while ((await focused()) !== 'prompt tokens' && steps++ < 20) await page.keyboard.press('Tab');
  assert.equal(await focused(), 'prompt tokens');
  await page.keyboard.press('ArrowRight');

  await page.waitForFunction((p) => window.KvEmbed.handle.getState().prompt_tokens > p, before);
  const after = await page.evaluate(() => window.KvEmbed.handle.getState().prompt_tokens);
  const knob = await page.evaluate(() => window.KvEmbed.handle.knobs().find((k) => k.field === 'prompt_tokens'));
  const next = knob.stops[knob.stops.findIndex((s) => s.value === before) + 1].value;
  assert.equal(after, next, 'one arrow key moves one stop, as on the canvas');

  // The live text is written once the value settles; it must equal the core's figures for the new state.
  await page.waitForFunction(() => document.querySelector('.kv-twin__live').textContent.includes('running'));
  await page.waitForTimeout(500);
  const check = await page.evaluate(() => {
    const handle = window.KvEmbed.handle;
    const result = KvPanels.evaluate(handle.getState());
    const at = (key) => key.split('.').reduce((o, k) => o[k], result);
    return {
      live: document.querySelector('.kv-twin__live').textContent,
      valuetext: document.activeElement.getAttribute('aria-valuetext'),
      // Each figure as the core formats it, with its kind's error band (the page's data-accuracy).
      expected: handle.keyResults().map((r) => {
        const accuracy = JSON.parse(document.querySelector('[data-accuracy]').getAttribute('data-accuracy'))[r.kind];
        return `${r.label}: ${KvPanels.format(at(r.key), r.format)}` + (accuracy ? ` (${KvPanels.format(accuracy.holdout_median, 'band')})` : '');
      }),
      tokens: KvPanels.format(result.scenario.prompt_tokens, 'count'),
    };
  });
  assert.equal(check.live, check.expected.join('; '));
  assert.match(check.live, /^running: .*the pool holds: .*decode rate: .*tokens\/s .*per-stream latency: /);
  assert.equal(check.valuetext, check.tokens);

  // A drag's many steps are announced once, when the value settles.
  const announcements = await page.evaluate(async () => {
    const live = document.querySelector('.kv-twin__live');
    let writes = 0;
    new MutationObserver(() => { writes++; }).observe(live, { childList: true, characterData: true, subtree: true });
    const handle = window.KvEmbed.handle;
    for (const p of [1024, 1280, 1536, 1792, 2048]) {
      handle.setState({ prompt_tokens: p });
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 2 * KvTwin.SETTLE_MS));
    const first = document.querySelector('.kv-twin__results dd');
    return { writes, live: live.textContent, strip: first.firstChild.textContent, band: first.querySelector('.kv-twin__band').textContent.trim() };
  });
  assert.equal(announcements.writes, 1, 'one announcement for five quick steps');
  assert.match(announcements.band, /^±[0-9.]+%$/, 'the running count carries the memory figures\' band');
  assert.ok(announcements.live.startsWith(`running: ${announcements.strip} (${announcements.band});`), announcements.live);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every knob of every lesson panel has one labelled native control, updated from the canvas side', async () => {
  const { page, errors } = await openLesson(desktop);
  const ids = await page.evaluate(() => Object.keys(window.KvLesson.panels));
  for (const id of ids) {
    const figure = page.locator(`figure[data-panel="${id}"]`);
    const knobs = await page.evaluate((i) => window.KvLesson.panels[i].knobs().filter((k) => k.drawn), id);
    assert.ok(knobs.length >= 3, `${id} draws knobs`);
    for (const k of knobs) assert.equal(await figure.getByLabel(k.label, { exact: true }).count(), 1, `${id}: ${k.label}`);
    // A change on the canvas side shows in the control.
    const k = knobs.find((x) => x.control === 'stops' && !x.optional);
    const target = await page.evaluate(([i, knob]) => {
      const handle = window.KvLesson.panels[i];
      const stop = knob.stops.find((s) => s.value !== handle.getState()[knob.field] && s.value <= 4096);
      handle.setState({ [knob.field]: stop.value });
      return stop;
    }, [id, k]);
    await page.waitForFunction(([i, label, text]) =>
      Array.from(document.querySelectorAll(`figure[data-panel="${i}"] .kv-twin input`))
        .some((e) => e.labels[0].textContent === label && e.getAttribute('aria-valuetext') === text), [id, k.label, target.text]);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [name, viewport] of [['1280×800', desktop], ['390×844', phone]]) {
  test(`at ${name} each knob's change shows in the strip, on screen`, async () => {
    const { page, errors } = await openLesson(viewport);
    for (const id of ['admission', 'phases', 'batching', 'serving']) {
      const initial = await page.evaluate((i) => window.KvLesson.panels[i].getState(), id);
      await page.evaluate((i) => { document.querySelector(`figure[data-panel="${i}"] details.kv-twin`).open = true; }, id);
      const knobs = await page.evaluate((i) => window.KvLesson.panels[i].knobs().filter((k) => k.drawn), id);
      for (const k of knobs) {
        const control = page.locator(`figure[data-panel="${id}"] .kv-twin__knobs`).getByLabel(k.label, { exact: true });
        if (!(await control.count())) continue;   // gone with a workload change (the serving panel's fixed lengths)
        const before = await page.evaluate((i) => JSON.stringify(window.KvLesson.panels[i].getState()), id);
        await control.scrollIntoViewIfNeeded();
        if (k.control === 'choice') {
          const n = await control.locator('option').count();
          const at = await control.evaluate((s) => s.selectedIndex);
          await control.selectOption({ index: at + 1 < n ? at + 1 : at - 1 });
        } else {
          await control.focus();
          const atMax = await control.evaluate((e) => e.type === 'range' && Number(e.value) >= Number(e.max));
          await page.keyboard.press(k.control === 'checkbox' ? 'Space' : atMax ? 'ArrowLeft' : 'ArrowRight');
        }
        await page.waitForFunction(([i, b]) => JSON.stringify(window.KvLesson.panels[i].getState()) !== b, [id, before], { timeout: 60000 })
          .catch(() => assert.fail(`${id} ${k.field}: the ${k.control} control changed nothing`));
        const seen = await stripOf(page, id);
        assert.ok(seen.top >= 0 && seen.bottom <= seen.height, `${id} ${k.field}: the strip is on screen (${seen.top}..${seen.bottom})`);
        assert.deepEqual(seen.shown, seen.core, `${id} ${k.field}: the strip shows the new results`);
        // Each time- or memory-valued result carries its kind's held-out median error; words and
        // exact figures carry none.
        const expected = await page.evaluate(([kinds, acc]) => kinds.map((kind) => (acc[kind] ? KvPanels.format(acc[kind].holdout_median, 'band') : '')),
          [seen.kinds, seen.accuracy]);
        assert.deepEqual(seen.bands, expected, `${id} ${k.field}: each result's error band`);
        assert.ok(seen.kinds.includes('time') || seen.core.length === 1, `${id}: the strip has a time-valued result`);
      }
      await page.evaluate(([i, s]) => window.KvLesson.panels[i].setState(s), [id, initial]);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a figure that forces multi-head attention into the two-phases panel shows a badge that undoes it', async () => {
  const { page, errors } = await openLesson(desktop);
  const knobs = await page.evaluate(() => window.KvLesson.panels.phases.knobs());
  assert.equal(knobs.find((k) => k.field === 'force_mha').drawn, false, 'the two-phases panel has no force_mha knob');
  // At the text's own scenario nothing is flagged: the starting point's fields are the reference.
  assert.equal(await page.locator('figure[data-panel="phases"] .kv-twin__badge').count(), 0);
  // A figure of the text whose scenario forces multi-head attention, loaded into this panel; or,
  // where the text has none beside it, the same load (lesson.js's click calls setState).
  const clicked = await page.evaluate(() => {
    const scenarios = window.KvLesson.scenarios;
    const link = Array.from(document.querySelectorAll('a.kv-fig[data-panel="phases"]'))
      .find((a) => (scenarios[a.dataset.scenarioName] || {}).force_mha === true);
    if (link) link.click();
    else window.KvLesson.panels.phases.setState({ force_mha: true });
    return !!link;
  });
  const badge = page.locator('figure[data-panel="phases"] .kv-twin__badge').filter({ hasText: 'force multi-head attention' });
  await badge.waitFor({ timeout: 30000 });
  assert.match(await badge.textContent(), /force multi-head attention: on \(set by the page or its address; not a knob here\)/);
  assert.ok(await badge.isVisible());
  await badge.getByRole('button').click();
  await page.waitForFunction(() => window.KvLesson.panels.phases.getState().force_mha === false);
  assert.equal(await badge.count(), 0, `the badge goes with the undo (figure clicked: ${clicked})`);
  assert.deepEqual(errors, []);
  await page.close();
});

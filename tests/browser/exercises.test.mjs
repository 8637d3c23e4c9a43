// Predict-then-check exercises ({{exercise}} in the lesson, site/js/kvexercise.js): answered with the
// keyboard alone against the core's value, readable without JavaScript, the same size with and
// without it, and shown under one panel by embed.html?exercises=SET.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launchBrowser, watchErrors, axeViolations, root } from './harness.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'build/site-manifest.json'), 'utf8'));
let server, browser;

before(async () => {
  server = await serve({ '/': path.join(root, 'build/site') });
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

// The core's answer to an exercise, as the generator computed it (the manifest holds every figure).
function answerOf(page, id) {
  return page.$eval(`#exercise-${id} .kv-exercise__value .kv-fig`, (a) => Number(a.getAttribute('data-fig')))
    .then((fig) => manifest.figures.find((f) => f.id === fig));
}

// Types a prediction and presses Check, keyboard only; returns the live region's text.
async function predict(page, id, text) {
  const input = `#exercise-${id} .kv-exercise__check input`;
  await page.focus(input);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Check', 'Tab reaches the Check button');
  await page.keyboard.press('Enter');
  return page.$eval(`#exercise-${id} .kv-exercise__verdict`, (p) => p.textContent);
}

test('a prediction typed and checked with the keyboard is judged against the core\'s value', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/`);
  await page.waitForSelector('.kv-exercise--ready');
  const ids = await page.$$eval('.kv-exercise', (all) => all.map((s) => s.getAttribute('data-exercise')));
  assert.ok(ids.length >= 8, `one exercise or more for each main chapter (found ${ids.length})`);
  // site/README.md lists the sets embed.html?exercises= takes: the ids' first words.
  const sets = [...new Set(ids.map((id) => id.split('-')[0]))];
  const readme = fs.readFileSync(path.join(root, 'site/README.md'), 'utf8');
  const listed = readme.match(/the sets are\s+([^.]*)\./)[1].match(/`[a-z0-9]+`/g).map((s) => s.slice(1, -1));
  assert.deepEqual(listed.sort(), sets.sort());
  const figure = await answerOf(page, 'bytes-32b');
  assert.equal(figure.binding, 'big_model_8k.kv_bytes_per_token | kib');
  const kib = figure.value / 1024;   // the core's value in the unit the label names
  assert.equal(await page.$eval('#exercise-bytes-32b label', (l) => l.textContent.trim()), 'Your prediction (KiB)');
  assert.equal(await page.$eval('#exercise-bytes-32b details', (d) => d.open), false, 'the answer starts hidden');

  const live = await page.$eval('#exercise-bytes-32b .kv-exercise__verdict', (p) => p.getAttribute('aria-live'));
  assert.equal(live, 'polite');
  const right = await predict(page, 'bytes-32b', String(Math.round(kib * 1.05)));
  assert.match(right, /^Right: .* within 10% of the model’s /);
  assert.ok(right.endsWith(`${figure.text}.`), right);
  assert.equal(await page.$eval('#exercise-bytes-32b details', (d) => d.open), true, 'a checked prediction opens the answer');

  const high = await predict(page, 'bytes-32b', String(Math.round(kib * 4)));
  assert.match(high, /^Not quite: .* off by more than a factor of two, too high; the model says /);
  const low = await predict(page, 'bytes-32b', String(Math.round(kib * 0.85)));
  assert.match(low, /close, but more than 10% low/);
  const empty = await predict(page, 'gqa-14b', 'many');
  assert.equal(empty, 'Type a number first, then press Check.');
  // A comma only groups thousands: "1,0,0" is not one hundred, "1,234" is 1234.
  assert.equal(await predict(page, 'gqa-14b', '1,0,0'), 'Type a number first, then press Check.');
  assert.ok(kib < 500, kib);
  assert.match(await predict(page, 'bytes-32b', '1,000'), /off by more than a factor of two, too high/);
  assert.equal(await page.$eval('#exercise-gqa-14b details', (d) => d.open), false, 'no number, no answer');
  assert.deepEqual(errors, []);
  await page.close();
});

// Questions computed from scratch have no value to start from; every other one asks for a change.
const FROM_SCRATCH = ['bytes-32b', 'real-concurrency'];

test('for every exercise the answer is right and the value it starts from never is', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/`);
  await page.waitForSelector('.kv-exercise--ready');
  const forms = await page.$$eval('.kv-exercise', (all) => all.map((s) => {
    const form = s.querySelector('form');
    return { id: s.getAttribute('data-exercise'), answer: form.getAttribute('data-answer'),
      unchanged: form.getAttribute('data-unchanged'), unchangedText: form.getAttribute('data-unchanged-text') };
  }));
  assert.deepEqual(forms.filter((f) => f.unchanged === null).map((f) => f.id), FROM_SCRATCH);
  const texts = new Set(manifest.figures.map((f) => f.text));
  for (const f of forms) {
    assert.match(await predict(page, f.id, f.answer), /^Right: /, f.id);
    if (f.unchanged === null) continue;
    // The starting value is a figure the question quotes (a factor's is 1.0×), formatted by the core.
    assert.ok(texts.has(f.unchangedText) || f.unchangedText === '1.0×', `${f.id}: ${f.unchangedText}`);
    const verdict = await predict(page, f.id, f.unchanged);
    assert.match(verdict, /^Not quite: .* nearer the starting /, f.id);
    assert.equal(await page.$eval(`#exercise-${f.id} .kv-exercise__verdict`, (p) => p.getAttribute('data-right')), 'false', f.id);
    // Halfway between, rounded towards the start, is still not right, even within 10% of the answer.
    const between = Number(f.unchanged) + 0.49 * (Number(f.answer) - Number(f.unchanged));
    assert.match(await predict(page, f.id, String(between)), /^Not quite: /, f.id);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('without JavaScript each exercise is its question and a disclosure with the answer, the same size', async () => {
  const measure = async (javaScriptEnabled) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    if (javaScriptEnabled) await page.waitForSelector('.kv-exercise--ready');
    const box = await page.$eval('#exercise-fp8-full-pool', (s) => s.getBoundingClientRect().height);
    const formShown = await page.$eval('#exercise-fp8-full-pool form', (f) => getComputedStyle(f).visibility);
    let answer = null;
    if (!javaScriptEnabled) {
      await page.click('#exercise-fp8-full-pool summary');
      answer = await page.$eval('#exercise-fp8-full-pool .kv-exercise__value', (p) => p.checkVisibility() && p.textContent);
    }
    await context.close();
    return { box, formShown, answer };
  };
  const off = await measure(false);
  const on = await measure(true);
  assert.equal(off.formShown, 'hidden', 'no form to fill without the script');
  assert.equal(on.formShown, 'visible');
  assert.equal(on.box, off.box, 'showing the form moves nothing');
  const figure = manifest.figures.find((f) => f.binding === 'fp8_pool_bound.running | count');
  assert.equal(off.answer, `The model’s answer: ${figure.text}`);
});

test('embed.html?exercises=gqa shows that set under the panel, answers it, and a figure drives the panel', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/embed.html?panel=admission&exercises=gqa`);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  const shown = await page.$$eval('.kv-embed__exercises .kv-exercise', (all) => all.map((s) => s.getAttribute('data-exercise')));
  assert.deepEqual(shown, ['gqa-14b']);
  assert.equal(await page.$eval('.kv-embed__exercises', (b) => b.hidden), false);
  const figure = await answerOf(page, 'gqa-14b');
  const verdict = await predict(page, 'gqa-14b', figure.text.replace('×', ''));
  assert.match(verdict, /^Right: /);
  await page.click('#exercise-gqa-14b .kv-exercise__value .kv-fig');
  assert.equal(await page.evaluate(() => window.KvEmbed.handle.getState().model), 'Qwen3-14B');
  assert.deepEqual(await page.evaluate(() => window.KvEmbed.messages), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed.html: an exercise figure loads its whole scenario into the panel that is there, or says why not', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/embed.html?panel=serving&exercises=serving&exercises=memory`);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  // The links name the lesson's panels, which this page has not: they open the lesson.
  const hrefs = await page.$$eval('.kv-embed__exercises a.kv-fig', (all) => all.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length > 0 && hrefs.every((h) => /^index\.html#panel-[a-z]+(-\d+)?$/.test(h)), hrefs.join(' '));
  const start = await page.evaluate(() => window.KvEmbed.handle.getState());
  await page.click('#exercise-serving-faster-rate summary');
  await page.click('#exercise-serving-faster-rate a.kv-fig[data-scenario-name="chat_12"]');
  assert.equal(await page.evaluate(() => window.KvEmbed.handle.getState().rate_per_s), 12);
  // The next figure's scenario has no workload of its own: the panel's default workload comes back.
  await page.click('#exercise-memory-utilization a.kv-fig[data-scenario-name="util_95"]');
  const after = await page.evaluate(() => window.KvEmbed.handle.getState());
  assert.equal(after.gpu_memory_utilization, 0.95);
  assert.equal(after.rate_per_s, start.rate_per_s);
  assert.equal(new URL(page.url()).pathname.endsWith('embed.html'), true);
  // An admission panel takes a serving figure's scenario without its workload, and says nothing.
  await page.goto(`${server.url}/embed.html?panel=admission&exercises=serving&gpu_memory_utilization=0.8`);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  await page.click('#exercise-serving-faster-rate a.kv-fig[data-scenario-name="chat_steady"] >> nth=0');
  assert.equal(await page.evaluate(() => window.KvEmbed.handle.getState().gpu_memory_utilization), 0.9);
  assert.deepEqual(await page.evaluate(() => window.KvEmbed.messages), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed.html with an unknown exercise set says so, and the exercises are accessible', async () => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${server.url}/embed.html?panel=batching&exercises=nope`);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  const messages = await page.evaluate(() => window.KvEmbed.messages.map((m) => m.field + ': ' + m.message));
  assert.equal(messages.length, 1);
  assert.match(messages[0], /^exercises: exercises "nope" names no exercise; use .*batching/);
  assert.equal(await page.$eval('.kv-embed__exercises', (b) => b.hidden), true);

  await page.goto(`${server.url}/embed.html?panel=batching&exercises=batching`);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  const violations = await axeViolations(page);
  assert.deepEqual(violations, []);
  await context.close();
});

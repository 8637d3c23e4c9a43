// The serving panel ("Serving over time", wasm/panels/panel_serving.cpp) in headless Chromium, mounted
// through site/js/kvpanels.js under the lesson's CSP on a page this test serves itself. Checks that
// it plays with no console errors, that it requests no animation frames while paused or off screen,
// that a reader who prefers reduced motion gets no autoplay but can still step, that the keyboard
// plays, pauses, steps and scrubs, that the workload is part of the panel's state (bad values
// named, nothing applied), and measures the simulate binding on 2,000 chat requests (the issue's
// budget is 150 ms in the browser; the assertion is generous, the figure is printed and saved in
// build/test-artifacts/serving-metrics.json).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { servePanelPages, launchBrowser, watchErrors, saveArtifact, root } from './harness.mjs';

const moduleFile = path.join(root, 'build/wasm/kvcache.js');
const metrics = {};

// The test page: one serving canvas between a button (so Tab reaches it) and a tall tail (so it can
// be scrolled off screen). Its script counts every requestAnimationFrame the page makes.
const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'">
<title>Serving panel: test page</title>
<link rel="icon" href="favicon.svg">
<link rel="stylesheet" href="/site/css/palette.css">
<link rel="stylesheet" href="panels.css">
</head>
<body>
<main>
  <button id="before">a focusable element before the panel</button>
  <canvas id="serving" class="kv-panel" aria-label="Serving over time panel"></canvas>
  <p class="tail">End of the page.</p>
</main>
<script src="/site/js/kvmodules.js"></script>
<script src="/site/js/kvpanels.js"></script>
<script src="/serving.js"></script>
</body>
</html>
`;
const pageScript = `(function () {
  'use strict';
  var test = (window.kvTest = { ready: false, handle: null, changes: 0, rafCalls: 0, error: null, backingHeights: [] });
  var raf = window.requestAnimationFrame.bind(window);
  // Every backing-store height the canvas is given: each is a new WebGL drawing buffer once it has a context.
  var height = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, 'height');
  Object.defineProperty(HTMLCanvasElement.prototype, 'height', { get: height.get, set: function (v) {
    if (this.id === 'serving' && this.height !== v) test.backingHeights.push(v);
    height.set.call(this, v);
  } });
  window.requestAnimationFrame = function (cb) { test.rafCalls += 1; return raf(cb); };
  KvPanels.load({ moduleUrl: '/build/kvcache.js' })
    .then(function () { return KvPanels.mount(document.getElementById('serving'), { panel: 'serving', state: {} }); })
    .then(function (h) {
      test.handle = h;
      h.onChange(function () { test.changes += 1; });
      test.ready = true;
    })
    .catch(function (e) { test.error = String(e); console.error(e); });
})();
`;

let server, browser, page, errors;

async function openPage(contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, ...contextOptions });
  const p = await context.newPage();
  const errs = watchErrors(p);
  await p.route('**/serving.html', (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: pageHtml }));
  await p.route('**/serving.js', (route) => route.fulfill({ contentType: 'text/javascript', body: pageScript }));
  await p.goto(`${server.url}/serving.html`);
  await p.waitForFunction(() => window.kvTest && (window.kvTest.ready || window.kvTest.error), null, { timeout: 30000 });
  assert.equal(await p.evaluate(() => window.kvTest.error), null);
  await landed(p);
  return { page: p, errors: errs, context };
}

const playback = (p = page) => p.evaluate(() => window.kvTest.handle.playback());
const call = (method, ...args) => page.evaluate(([m, a]) => window.kvTest.handle[m](...a), [method, args]);
const rafCalls = (p = page) => p.evaluate(() => window.kvTest.rafCalls);
// The panel's run is taken a slice per animation frame (wasm/app/app.cpp, on_work): waits until it has landed.
const landed = (p = page) => p.waitForFunction(() => !window.kvTest.handle.result().simulating, null, { timeout: 30000 });

// Waits until no frame has been drawn for `quietMs`.
async function settle(p = page, quietMs = 200) {
  let last = -1;
  for (let i = 0; i < 50; ++i) {
    const frames = (await p.evaluate(() => KvPanels.drawStats())).frames;
    if (frames === last) return;
    last = frames;
    await p.waitForTimeout(quietMs);
  }
}

// requestAnimationFrame calls and frames drawn over `ms`.
async function activity(p, ms) {
  await p.evaluate(() => KvPanels.resetDrawStats());
  const raf0 = await rafCalls(p);
  await p.waitForTimeout(ms);
  return { raf: (await rafCalls(p)) - raf0, frames: (await p.evaluate(() => KvPanels.drawStats())).frames };
}

async function press(key, p = page) {
  await p.keyboard.press(key);
  await settle(p, 120);
}

before(async () => {
  assert.ok(fs.existsSync(moduleFile), 'build/wasm/kvcache.js: build the wasm preset first');
  server = await servePanelPages();
  browser = await launchBrowser();
  ({ page, errors } = await openPage());
});

after(async () => {
  saveArtifact('serving-metrics.json', JSON.stringify(metrics, null, 2) + '\n');
  await browser?.close();
  await server?.close();
});

test('the serving panel mounts, plays by itself and draws the pool, with no console errors', async () => {
  const first = await playback();
  assert.equal(first.playing, true, 'autoplay when motion is welcome');
  assert.ok(first.frames > 10, `${first.frames} frames recorded`);
  await page.waitForFunction(() => window.kvTest.handle.playback().frame >= 5, null, { timeout: 10000 });
  const r = await call('result');
  assert.equal(r.status, 'ok');
  assert.ok(r.simulation, 'the run summary rides on result()');
  const png = await (await page.$('#serving')).screenshot();
  saveArtifact('serving-playing.png', png);
  const box = await page.$eval('#serving', (c) => c.clientHeight);
  assert.ok(box > 600, `canvas sized to its content (${box} px)`);
  const layout = await call('layout');
  for (const field of ['play', 'step', 'scrub', 'model', 'gpu', 'workload', 'rate_per_s', 'requests', 'seed',
    'shared_prefix_tokens', 'prefix_caching'])
    assert.ok(layout[field], `${field} drawn`);
  assert.deepEqual(errors, []);
});

// The canvas opens when the first run lands, sized for it, and keeps that size as the run plays: the
// stats lines keep the room of their tallest moment (wasm/panels/panel_serving.cpp), because every
// new height would be a new drawing buffer (30-95 ms, a long task, on a software renderer). Fails
// where the canvas opens at the "Simulating the run..." height or grows as the stats lines come.
test('the serving panel opens at the height of its run and keeps it while the run plays to its end', async () => {
  const { page: p, context } = await openPage();
  try {
    const at = () => p.evaluate(() => [window.kvTest.backingHeights.slice(), document.getElementById('serving').style.height]);
    const [opened, cssHeight] = await at();
    assert.equal(opened.length, 1, `one backing-store height at mount (${opened})`);
    const { frames } = await playback(p);
    for (const frame of [1, frames >> 2, frames >> 1, frames - 2, frames - 1]) {
      await p.evaluate((f) => window.kvTest.handle.play(false, f), frame);
      await p.waitForFunction((f) => window.kvTest.handle.playback().frame === f, frame, { timeout: 5000 });
      await settle(p);
      assert.deepEqual(await at(), [opened, cssHeight], `frame ${frame} of ${frames}`);
    }
  } finally {
    await context.close();
  }
});

test('paused: no animation frames and no draws; off screen while playing: none either', async () => {
  await call('play', false);
  await page.mouse.move(2, 2);
  await settle();
  const paused = await activity(page, 1500);
  metrics.paused_animation_frames_1500ms = paused.raf;
  console.log(`serving panel paused: ${paused.raf} animation frames, ${paused.frames} frames drawn in 1.5 s`);
  assert.equal(paused.raf, 0, 'requestAnimationFrame calls while paused');
  assert.equal(paused.frames, 0, 'frames drawn while paused');

  // Playing, then scrolled away: the loop stops while the panel is off screen and resumes after.
  await call('play', true);
  const playing = await activity(page, 500);
  assert.ok(playing.raf > 5, `${playing.raf} animation frames while playing`);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForFunction(() => document.getElementById('serving').getBoundingClientRect().bottom < -100);
  await page.waitForTimeout(300);   // the IntersectionObserver reports, the last frames drain
  const hidden = await activity(page, 1000);
  const where = await playback();
  metrics.offscreen_animation_frames_1000ms = hidden.raf;
  assert.equal(where.playing, true, 'still playing, only not drawn');
  assert.equal(hidden.raf, 0, 'no animation frames off screen');
  assert.equal(hidden.frames, 0, 'no frames off screen');
  await page.evaluate(() => window.scrollTo(0, 0));
  const frameThen = where.frame;
  await page.waitForFunction((f) => window.kvTest.handle.playback().frame > f, frameThen, { timeout: 5000 });
  await call('play', false);
  await settle();
  assert.deepEqual(errors, []);
});

test('keyboard: Tab lands on Play; Space plays and pauses, Step steps, the slider scrubs', async () => {
  await call('play', false, 0);   // paused at the start: the run cannot end while the test plays it
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.focus('#before');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'serving');
  await settle();
  const scrollBefore = await page.evaluate(() => window.scrollY);
  const start = await playback();
  await page.keyboard.press('Space');   // no settle while playing: it draws every frame
  await page.waitForFunction(() => window.kvTest.handle.playback().playing, null, { timeout: 3000 });
  await page.waitForFunction((f) => window.kvTest.handle.playback().frame > f, start.frame, { timeout: 5000 });
  await page.keyboard.press('Space');
  await page.waitForFunction(() => !window.kvTest.handle.playback().playing, null, { timeout: 3000 });
  await settle();
  const pausedAt = await playback();
  assert.equal(pausedAt.playing, false, 'Space again pauses');
  await press('ArrowRight');   // to Step
  await press('Space');
  const stepped = await playback();
  assert.equal(stepped.frame, pausedAt.frame + 1, 'Step moves one frame');
  assert.equal(stepped.playing, false);
  await press('ArrowRight');   // to the slider: Space takes it, arrows move it, Space lets go
  await press('Space');
  await press('ArrowRight');
  await press('ArrowRight');
  await press('Space');
  const scrubbed = await playback();
  assert.ok(scrubbed.frame > stepped.frame, `scrubbed ${stepped.frame} -> ${scrubbed.frame}`);
  assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'arrows and Space do not scroll the page');
  saveArtifact('serving-keyboard.png', await (await page.$('#serving')).screenshot());
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'serving', 'Tab leaves the panel');
  await settle();
  assert.deepEqual(errors, []);
});

test('the workload is state: getState and setState carry it, knobs re-run the simulation, bad values are named', async () => {
  const state = await call('getState');
  for (const field of ['workload', 'rate_per_s', 'requests', 'seed', 'shared_prefix_tokens', 'prefix_caching'])
    assert.ok(field in state, `getState has ${field}`);
  assert.equal(state.model, 'Qwen3-8B');
  const before = (await call('result')).simulation;
  const changes = await page.evaluate(() => window.kvTest.changes);
  const t0 = Date.now();
  assert.deepEqual(await call('setState', { requests: 400, rate_per_s: 4, shared_prefix_tokens: 2000 }), { ok: true });
  metrics.set_state_400_requests_ms = Date.now() - t0;
  await landed();
  const after = await call('getState');
  assert.equal(after.requests, 400);
  assert.equal(after.rate_per_s, 4);
  assert.equal(after.shared_prefix_tokens, 2000);
  const run = (await call('result')).simulation;
  assert.notDeepEqual(run, before, 'the run was redone');
  await page.waitForFunction((n) => window.kvTest.changes > n, changes);
  // The same state again is silent.
  const count = await page.evaluate(() => window.kvTest.changes);
  assert.deepEqual(await call('setState', { requests: 400 }), { ok: true });
  await page.waitForTimeout(50);
  assert.equal(await page.evaluate(() => window.kvTest.changes), count);

  const kept = await call('getState');
  const bad = [
    [{ rate_per_s: -1 }, 'rate_per_s', 'out_of_range'],
    [{ rate_per_s: 1e9 }, 'rate_per_s', 'out_of_range'],
    [{ requests: 0 }, 'requests', 'out_of_range'],
    [{ requests: 1e9 }, 'requests', 'out_of_range'],
    [{ requests: 'many' }, 'requests', 'wrong_type'],
    [{ shared_prefix_tokens: -5 }, 'shared_prefix_tokens', 'out_of_range'],
    [{ prefix_caching: 'yes' }, 'prefix_caching', 'wrong_type'],
    [{ workload: 'bogus' }, 'workload', 'unknown_value'],
    [{ seed: -1 }, 'seed', 'out_of_range'],
    [{ rate_per_s: 2, prompt_tokens: 1e30 }, 'prompt_tokens', 'out_of_range'],
    // Every field in range, but the run would be 20,000 requests of 40,960 tokens: refused before it starts.
    [{ workload: 'fixed', requests: 20000, rate_per_s: 10000, prompt_tokens: 32768, output_tokens: 8192 }, 'requests', 'out_of_range'],
  ];
  for (const [partial, field, code] of bad) {
    const reply = await call('setState', partial);
    assert.equal(reply.error?.field, field, JSON.stringify(partial));
    assert.equal(reply.error.code, code, JSON.stringify(partial));
    assert.ok(reply.error.message.length > 0 && !/NaN/.test(reply.error.message), reply.error.message);
    assert.deepEqual(await call('getState'), kept, 'nothing applied');
  }
  await settle();
  saveArtifact('serving-rejected.png', await (await page.$('#serving')).screenshot());
  // An engine that refuses to start: the panel shows the refusal, no run.
  assert.deepEqual(await call('setState', { model: 'Qwen3-32B', gpu_memory_utilization: 0.72 }), { ok: true });
  const refused = await call('result');
  assert.equal(refused.status, 'engine_refused');
  assert.equal(refused.simulation, null);
  await settle();
  saveArtifact('serving-engine-refused.png', await (await page.$('#serving')).screenshot());
  assert.deepEqual(await call('setState', { model: 'Qwen3-8B', gpu_memory_utilization: 0.9, requests: 2000, rate_per_s: 8,
    shared_prefix_tokens: 0 }), { ok: true });
  await call('play', false);
  await settle();
  assert.deepEqual(errors, []);
});

test('an overloaded run: the pool runs dry, requests are preempted, the shared prefix is hit', async () => {
  // Long documents all at once behind a 2,000-token system prompt: more than the pool holds.
  assert.deepEqual(await call('setState', { workload: 'summarise', rate_per_s: 0, requests: 1000, shared_prefix_tokens: 2000 }),
    { ok: true });
  await landed();
  await call('play', false);
  const run = (await call('result')).simulation;
  assert.ok(run.preemptions > 0, `${run.preemptions} preemptions`);
  assert.ok(run.prefix_hit_rate > 0, `prefix hit rate ${run.prefix_hit_rate}`);
  assert.ok(run.peak_kv_cache_usage > 0.95, `peak usage ${run.peak_kv_cache_usage}`);
  assert.equal(run.metrics['vllm:num_preemptions_total'], run.preemptions);
  await settle();
  saveArtifact('serving-overload.png', await (await page.$('#serving')).screenshot());
  assert.deepEqual(await call('setState', { workload: 'chat', rate_per_s: 8, requests: 2000, shared_prefix_tokens: 0 }), { ok: true });
  await call('play', false);
  await settle();
  assert.deepEqual(errors, []);
});

test('simulate(): 2,000 chat requests on the default scenario, timed in the browser', async () => {
  const out = await page.evaluate(() => {
    const times = [];
    let summary = null;
    for (let i = 0; i < 5; ++i) {
      const t0 = performance.now();
      summary = KvPanels.simulate({}, { requests: 2000, rate_per_s: 8 });
      times.push(performance.now() - t0);
    }
    const bad = KvPanels.simulate({}, { requests: -1 });
    const badScenario = KvPanels.simulate({ prompt_tokens: 'long' }, {});
    return { times, summary, bad, badScenario };
  });
  assert.ok(!out.summary.error, JSON.stringify(out.summary.error));
  const sorted = [...out.times].sort((a, b) => a - b);
  metrics.simulate_2000_chat_ms = { first: out.times[0], median: sorted[2], min: sorted[0], all: out.times };
  console.log(`simulate 2,000 chat requests in the browser: first ${out.times[0].toFixed(1)} ms, ` +
              `median ${sorted[2].toFixed(1)} ms (issue budget 150 ms)`);
  assert.ok(sorted[2] < 1500, `median ${sorted[2]} ms: far over the 150 ms budget`);
  assert.equal(out.bad.error?.field, 'requests');
  assert.equal(out.badScenario.error?.field, 'prompt_tokens');
});

test('prefers-reduced-motion: no autoplay, no animation frames; Step still works', async () => {
  const calm = await openPage({ reducedMotion: 'reduce' });
  const p = calm.page;
  const at = await playback(p);
  assert.equal(at.reduced_motion, true);
  assert.equal(at.playing, false, 'no autoplay');
  assert.ok(at.frame > 0, 'rests on a frame with the pool in use');
  await p.mouse.move(2, 2);
  await settle(p);
  const idle = await activity(p, 1000);
  metrics.reduced_motion_animation_frames_1000ms = idle.raf;
  assert.equal(idle.raf, 0);
  await p.focus('#before');
  await p.keyboard.press('Tab');
  await settle(p);
  await press('ArrowRight', p);   // Play -> Step
  await press('Space', p);
  const stepped = await playback(p);
  assert.equal(stepped.frame, at.frame + 1, 'Step works');
  assert.equal(stepped.playing, false);
  assert.deepEqual(calm.errors, []);
  await calm.context.close();
});

// The panels in headless Chromium: a test page (tests/browser/pages/panels.html) mounts the three
// panels through site/js/kvpanels.js and build/wasm/kvcache.js under the lesson's CSP. Checks that
// they draw, that the JS API round-trips state and refuses bad state field by field, that an idle
// page draws nothing, that a panel off screen draws nothing, that the wheel scrolls the page, that
// the keyboard reaches the controls, that the theme follows prefers-color-scheme and the canvas
// follows devicePixelRatio. Saves a screenshot per panel and the measured figures
// (build/test-artifacts/panels-*.png, panels-metrics.json).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, servePanelPages, launchBrowser, watchErrors, saveArtifact, root } from './harness.mjs';

// The native CLI's result for a scenario: the figures the panels must agree with (the core's own
// tests pin the numbers themselves).
const cli = path.join(root, 'build/native/kvcache');
const native = (scenario) => JSON.parse(execFileSync(cli, ['--scenario', JSON.stringify(scenario)], { encoding: 'utf8' }));

const panelNames = ['admission', 'phases', 'batching'];
const moduleFile = path.join(root, 'build/wasm/kvcache.js');
const loaderFile = path.join(root, 'site/js/kvpanels.js');
const metrics = {};

let server, browser, page, errors;


async function openPage(options = {}) {
  const p = await browser.newPage({ viewport: { width: 900, height: 900 }, ...options });
  const errs = watchErrors(p);
  await p.goto(`${server.url}/panels.html`);
  await p.waitForFunction(() => window.kvTest && (window.kvTest.ready || window.kvTest.error), null, { timeout: 30000 });
  assert.equal(await p.evaluate(() => window.kvTest.error), null);
  return { page: p, errors: errs };
}

const stats = () => page.evaluate(() => KvPanels.drawStats());
const resetStats = () => page.evaluate(() => KvPanels.resetDrawStats());
const rafCalls = () => page.evaluate(() => window.kvTest.rafCalls);
const call = (panel, method, ...args) =>
  page.evaluate(([p, m, a]) => window.kvTest.handles[p][m](...a), [panel, method, args]);

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

// A minimal PNG decoder (8-bit RGB/RGBA, not interlaced): what page.screenshot() writes.
function decodePng(buffer) {
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buffer.length) {
    const length = buffer.readUInt32BE(pos);
    const type = buffer.toString('ascii', pos + 4, pos + 8);
    const data = buffer.subarray(pos + 8, pos + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, '8-bit PNG');
      channels = { 2: 3, 6: 4 }[data[9]];
      assert.ok(channels, 'RGB or RGBA PNG');
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 0xff;
    }
  }
  return { width, height, channels, pixel: (x, y) => Array.from(out.subarray((y * width + x) * channels, (y * width + x) * channels + 3)), data: out };
}

function distinctColours(png) {
  const seen = new Set();
  for (let i = 0; i < png.data.length; i += png.channels)
    seen.add((png.data[i] << 16) | (png.data[i + 1] << 8) | png.data[i + 2]);
  return seen.size;
}

async function shoot(p, name, file) {
  const element = await p.$(`#${name}`);
  await element.scrollIntoViewIfNeeded();
  await settle(p);   // a panel scrolled into view draws on its next animation frame
  const png = await element.screenshot();
  saveArtifact(file, png);
  return decodePng(png);
}

before(async () => {
  assert.ok(fs.existsSync(moduleFile), 'build/wasm/kvcache.js: build the wasm preset first');
  server = await servePanelPages();
  browser = await launchBrowser();
  ({ page, errors } = await openPage());
  metrics.first_frame_ms = (await stats()).first_frame_at_ms;
});

after(async () => {
  saveArtifact('panels-metrics.json', JSON.stringify(metrics, null, 2) + '\n');
  await browser?.close();
  await server?.close();
});

test('the three panels mount under the lesson CSP without console errors', async () => {
  assert.deepEqual(await page.evaluate(() => Object.keys(window.kvTest.handles).sort()), [...panelNames].sort());
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  // One module for the page: the loader fetched kvcache.js once for three panels, and over http it
  // streamed kvcache.wasm, never the base64 copy that pages opened from disk use.
  assert.equal(server.requests.filter((r) => r.endsWith('/kvcache.js')).length, 1);
  assert.equal(server.requests.filter((r) => r.endsWith('/kvcache.wasm')).length, 1);
  assert.equal(server.requests.filter((r) => r.endsWith('/kvcache.wasm.js')).length, 0);
  assert.deepEqual(errors, []);
});

test('each canvas is drawn: not blank, many colours (a screenshot per panel)', async () => {
  for (const name of panelNames) {
    const png = await shoot(page, name, `panels-${name}.png`);
    const colours = distinctColours(png);
    assert.ok(colours > 200, `${name}: ${colours} distinct colours`);
    assert.deepEqual(png.pixel(3, 3), [255, 255, 255], `${name}: light background`);
    const box = await page.$eval(`#${name}`, (c) => [c.clientHeight, c.height]);
    assert.ok(box[0] > 400, `${name} sized to its content (${box[0]} px)`);
  }
  assert.deepEqual(errors, []);
});

test('setState changes what getState, result() and onChange report', async () => {
  const before = await call('admission', 'result');
  assert.equal(before.max_resident_sequences, native({}).max_resident_sequences);
  const longPrompt = native({ prompt_tokens: 32768 });
  assert.ok(longPrompt.max_resident_sequences < before.max_resident_sequences);
  const changesBefore = await page.evaluate(() => window.kvTest.changes.length);
  assert.deepEqual(await call('admission', 'setState', { prompt_tokens: 32768 }), { ok: true });
  const state = await call('admission', 'getState');
  assert.equal(state.prompt_tokens, 32768);
  assert.equal(state.model, 'Qwen3-8B');
  const after = await call('admission', 'result');
  assert.equal(after.max_resident_sequences, longPrompt.max_resident_sequences);
  await page.waitForFunction((n) => window.kvTest.changes.length > n, changesBefore);
  const change = await page.evaluate(() => window.kvTest.changes.at(-1));
  assert.deepEqual(change, { panel: 'admission', prompt_tokens: 32768, running: longPrompt.running });
  // Setting the same state again is accepted silently: no change event to echo back.
  const count = await page.evaluate(() => window.kvTest.changes.length);
  assert.deepEqual(await call('admission', 'setState', { prompt_tokens: 32768 }), { ok: true });
  await page.waitForTimeout(50);
  assert.equal(await page.evaluate(() => window.kvTest.changes.length), count);
  // Each panel keeps its own state.
  assert.equal((await call('phases', 'getState')).prompt_tokens, 4096);
  assert.deepEqual(await call('admission', 'setState', { prompt_tokens: 4096 }), { ok: true });
  await settle();
});

test('bad state names the field, changes nothing, and the panel shows the message', async () => {
  await call('admission', 'setState', { concurrent_requests: 64 });
  const kept = await call('admission', 'getState');
  await settle();
  const clean = decodePng(await (await page.$('#admission')).screenshot());

  const bad = [
    [{ prompt_tokens: 1e30 }, 'prompt_tokens', 'out_of_range'],
    [{ gpu: 'TPU-v5e', prompt_tokens: 1024 }, 'gpu', 'unknown_value'],
    [{ kv_cache_dtype: 'int4' }, 'kv_cache_dtype', 'unknown_value'],
    [{ force_mha: 'yes' }, 'force_mha', 'wrong_type'],
    [{ enforce_eager: 'yes' }, 'enforce_eager', 'wrong_type'],
    [{ max_num_seqs: 0 }, 'max_num_seqs', 'out_of_range'],
    [{ max_model_len: 1e30 }, 'max_model_len', 'out_of_range'],
    [{ vllm_version: 'latest' }, 'vllm_version', 'unknown_value'],
    [{ gpu_config: { memory_gib: 48 }, prompt_tokens: 1024 }, 'gpu_config.hbm_tb_per_s', 'missing_field'],
    [{ model_config: { num_hidden_layers: 32 } }, 'model_config.hidden_size', 'missing_field'],
    [{ bogus: 1 }, 'bogus', 'unknown_field'],
  ];
  for (const [partial, field, code] of bad) {
    const reply = await call('admission', 'setState', partial);
    assert.equal(reply.error?.field, field, JSON.stringify(partial));
    assert.equal(reply.error.code, code, JSON.stringify(partial));
    assert.ok(reply.error.message.length > 0);
    assert.deepEqual(await call('admission', 'getState'), kept, 'every other setting kept');
  }
  await settle();
  const shown = await shoot(page, 'admission', 'panels-admission-rejected.png');
  assert.notEqual(shown.height, clean.height, 'the rejection message is drawn in the panel');
  // The next accepted change clears it.
  assert.deepEqual(await call('admission', 'setState', { concurrent_requests: 32 }), { ok: true });
  await settle();
  assert.deepEqual(errors, []);
});

test('the engine refuses to start: its message and what would start it, no admission figures', async () => {
  // Qwen3-32B's weights alone overrun the budget at 0.72: no memory for the cache blocks.
  assert.deepEqual(await call('admission', 'setState', { model: 'Qwen3-32B', gpu_memory_utilization: 0.72 }), { ok: true });
  const r = await call('admission', 'result');
  assert.equal(r.status, 'engine_refused');
  assert.equal(r.startup_error.kind, native({ model: 'Qwen3-32B', gpu_memory_utilization: 0.72 }).startup_error.kind);
  assert.ok(r.startup_error.message.length > 0);
  assert.equal(r.running, 0, 'no admission figures');
  assert.ok(r.min_utilization_that_fits > 0.72);
  await settle();
  await shoot(page, 'admission', 'panels-admission-engine-refused.png');
  await call('phases', 'setState', { model: 'Qwen3-32B', gpu_memory_utilization: 0.72 });
  await settle();
  await shoot(page, 'phases', 'panels-phases-engine-refused.png');

  // At 0.90 the pool is too small for one max_model_len request; both figures the panel offers as
  // "what would start it" do start it.
  assert.deepEqual(await call('admission', 'setState', { gpu_memory_utilization: 0.9 }), { ok: true });
  const tight = await call('admission', 'result');
  assert.equal(tight.status, 'engine_refused');
  assert.equal(tight.startup_error.kind, 'max_model_len_does_not_fit');
  assert.ok(tight.estimated_max_model_len > 0 && tight.estimated_max_model_len < tight.scenario.max_model_len);
  await settle();
  await shoot(page, 'admission', 'panels-admission-max-model-len.png');
  assert.deepEqual(await call('admission', 'setState', { max_model_len: tight.estimated_max_model_len }), { ok: true });
  assert.equal((await call('admission', 'result')).status, 'ok');
  const utilization = Math.ceil(tight.min_utilization_that_fits * 100 - 1e-9) / 100;
  assert.deepEqual(await call('admission', 'setState', { max_model_len: null, gpu_memory_utilization: utilization }), { ok: true });
  assert.equal((await call('admission', 'result')).status, 'ok');

  // A tensor-parallel size the engine refuses for the heads is a refusal too, in the batching table:
  // a catalog model whose attention heads 8 does not divide (Qwen2.5-7B's 28, say).
  const catalog = await page.evaluate(() => KvPanels.catalog());
  const oddHeads = catalog.models.find((m) => m.attention === 'standard' && m.num_attention_heads % 8 !== 0);
  if (oddHeads) {
    assert.deepEqual(await call('batching', 'setState', { model: oddHeads.id }), { ok: true });
    const tp = await page.evaluate((id) => KvPanels.evaluate({ model: id, tensor_parallel_size: 8 }), oddHeads.id);
    assert.equal(tp.status, 'engine_refused');
    assert.equal(tp.startup_error.kind, 'tensor_parallel_mismatch');
    await settle();
    await shoot(page, 'batching', 'panels-batching-tp-refused.png');
  }

  for (const name of panelNames)
    assert.deepEqual(await call(name, 'setState', { model: 'Qwen3-8B', gpu_memory_utilization: 0.9, max_model_len: null }), { ok: true });
  await settle();
  assert.deepEqual(errors, []);
});

test('idle: no animation frames and no draws over 2 s', async () => {
  await page.mouse.move(2, 2);   // the pointer off every panel
  await settle();
  await resetStats();
  const raf0 = await rafCalls();
  await page.waitForTimeout(2000);
  const s = await stats();
  const raf = (await rafCalls()) - raf0;
  metrics.idle_fps = s.frames / 2;
  metrics.idle_animation_frames_2s = raf;
  assert.equal(s.frames, 0, 'frames drawn while idle');
  assert.equal(raf, 0, 'requestAnimationFrame calls while idle');
});

test('a panel off screen draws nothing, keeps its height right, and catches up when it returns', async () => {
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await settle();
  const hidden = await page.$eval('#admission', (c) => c.getBoundingClientRect().bottom < 0);
  assert.ok(hidden, 'admission scrolled out of view');
  const tall = await page.$eval('#admission', (c) => c.clientHeight);
  await resetStats();
  // The refused state has another height: the canvas follows without a frame being drawn.
  assert.deepEqual(await call('admission', 'setState', { model: 'Qwen3-32B', gpu_memory_utilization: 0.72 }), { ok: true });
  await page.waitForTimeout(400);
  const s = await stats();
  assert.equal(s.frames, 0, 'no frame for an off-screen panel');
  assert.equal(s.animation_requests, 0, 'no animation frame requested for it');
  assert.ok(s.layout_passes >= 1);
  assert.notEqual(await page.$eval('#admission', (c) => c.clientHeight), tall, 'height re-measured off screen');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => KvPanels.drawStats().frames > 0, null, { timeout: 3000 });
  await call('admission', 'setState', { model: 'Qwen3-8B', gpu_memory_utilization: 0.9 });
  await settle();
});

test('the JS API: evaluate(), format(), run-time mount and unmount, refused mounts', async () => {
  const out = await page.evaluate(async () => {
    const r = KvPanels.evaluate({ prompt_tokens: 32768, kv_cache_dtype: 'fp8' });
    const canvas = document.createElement('canvas');
    canvas.className = 'kv-panel';
    document.querySelector('main').appendChild(canvas);
    const h = await KvPanels.mount(canvas, { panel: 'batching', state: { prompt_tokens: 32768, gpu: 'TPU-v5e' } });
    const mounted = { rejected: h.rejected, state: h.getState(), id: canvas.id, tab: canvas.tabIndex };
    h.unmount();
    canvas.remove();
    let refused = null;
    try {
      await KvPanels.mount(document.createElement('canvas'), { panel: 'kv-heads' });
    } catch (e) { refused = { field: e.field, code: e.code }; }
    return { running: r.running, itl: r.itl_s, format: KvPanels.format(147456, 'kib'), mounted, refused };
  });
  assert.equal(out.running, native({ prompt_tokens: 32768, kv_cache_dtype: 'fp8' }).running);
  assert.equal(out.format, '144 KiB');
  assert.equal(out.mounted.rejected.field, 'gpu', 'a refused initial state is reported...');
  assert.equal(out.mounted.state.prompt_tokens, 4096, '...and none of it applied');
  assert.equal(out.mounted.tab, 0, 'focusable');
  assert.deepEqual(out.refused, { field: 'panel', code: 'unknown_value' });
  assert.deepEqual(errors, []);
});

test('a phone: narrow layout, and a tap on a control changes it', async () => {
  const context = await browser.newContext({ viewport: { width: 400, height: 800 }, hasTouch: true, isMobile: true });
  const phone = await context.newPage();
  const phoneErrors = watchErrors(phone);
  await phone.goto(`${server.url}/panels.html`);
  await phone.waitForFunction(() => window.kvTest && window.kvTest.ready, null, { timeout: 30000 });
  await settle(phone);
  const layout = await phone.evaluate(() => window.kvTest.handles.admission.layout());
  const canvasWidth = await phone.$eval('#admission', (c) => c.clientWidth);
  // Knobs stack (label above a full-width control) so the controls keep their width.
  assert.ok(layout.prompt_tokens[2] > canvasWidth * 0.7, `prompt slider ${layout.prompt_tokens[2]} of ${canvasWidth} px`);
  const [x, y, w, h] = layout.kv_cache_dtype;
  const box = await (await phone.$('#admission')).boundingBox();
  await phone.touchscreen.tap(box.x + x + w - 10, box.y + y + h / 2);   // the FP8 radio (the group ends with it)
  await settle(phone);
  assert.equal(await phone.evaluate(() => window.kvTest.handles.admission.getState().kv_cache_dtype), 'fp8');
  for (const name of panelNames) await shoot(phone, name, `panels-${name}-phone.png`);
  assert.deepEqual(phoneErrors, []);
  await context.close();
});

test('the wheel over a panel scrolls the page', async () => {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await (await page.$('#admission')).boundingBox();
  await page.mouse.move(box.x + box.width / 2, Math.min(box.y + 300, 800));
  await page.mouse.wheel(0, 400);
  await page.waitForFunction(() => window.scrollY > 0, null, { timeout: 3000 });
  assert.ok((await page.evaluate(() => window.scrollY)) > 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(2, 2);
  await settle();
});

test('keyboard: Tab focuses the first panel and the arrow keys change a control', async () => {
  await page.focus('#before');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'admission');
  await settle();
  const before = (await call('admission', 'getState')).prompt_tokens;
  const scrollBefore = await page.evaluate(() => window.scrollY);
  // Focus starts on the first knob (model); Down reaches prompt tokens, Space takes the slider,
  // Right moves it one stop at a time, Space lets go.
  for (const key of ['ArrowDown', 'Space', 'ArrowRight', 'ArrowRight', 'Space']) {
    await page.keyboard.press(key);
    await settle(page, 120);
  }
  const after = (await call('admission', 'getState')).prompt_tokens;
  assert.ok(after > before, `prompt tokens ${before} -> ${after}`);
  // Up to the model combo, Space opens it, Down picks the next model, Space confirms.
  for (const key of ['ArrowUp', 'Space', 'ArrowDown', 'Space']) {
    await page.keyboard.press(key);
    await settle(page, 120);
  }
  assert.equal((await call('admission', 'getState')).model, 'Qwen3-14B');
  assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'arrows and Space do not scroll the page');
  await shoot(page, 'admission', 'panels-admission-keyboard.png');
  // Tab leaves the panel: no keyboard trap.
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'admission');
  await call('admission', 'setState', { prompt_tokens: 4096, model: 'Qwen3-8B' });
  await settle();
});

test('dragging a slider: state follows the pointer; CPU time per frame', async () => {
  await page.evaluate(() => window.scrollTo(0, 0));
  const layout = await call('admission', 'layout');
  const [x, y, w, h] = layout.prompt_tokens;
  const box = await (await page.$('#admission')).boundingBox();
  const y0 = box.y + y + h / 2;
  await page.mouse.move(box.x + x + w * 0.3, y0);
  await settle();
  await resetStats();
  await page.mouse.down();
  const steps = 24;
  for (let i = 1; i <= steps; ++i) {
    await page.mouse.move(box.x + x + w * (0.3 + 0.6 * i / steps), y0);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await settle();
  const s = await stats();
  // mean_ms: all of draw(), performance.now() around it; mean_build_ms: ImGui, panels and core
  // only (the rest is GL submission, which here waits on software rendering).
  metrics.drag = { frames: s.frames, mean_ms: s.mean_ms, mean_build_ms: s.mean_build_ms, max_ms: s.max_ms };
  assert.ok(s.frames >= 10, `${s.frames} frames while dragging`);
  assert.ok((await call('admission', 'getState')).prompt_tokens > 16384, 'the slider moved the prompt');
  await call('admission', 'setState', { prompt_tokens: 4096 });
  await page.mouse.move(2, 2);
  await settle();
});

test('the new knobs: max_model_len (engine default until moved), vllm_version, enforce_eager', async () => {
  const state = await call('admission', 'getState');
  assert.equal(state.max_model_len, null, 'unset: the engine default');
  const r = await call('admission', 'result');
  assert.equal(r.scenario.max_model_len, r.model.max_position_embeddings, 'the default is the model\'s');
  const layout = await call('admission', 'layout');
  for (const field of ['max_model_len', 'vllm_version', 'enforce_eager', 'max_num_seqs', 'max_num_batched_tokens'])
    assert.ok(layout[field], `${field} is drawn`);

  // V0 profiles max(max_model_len, 2048) tokens: the activation peak follows max_model_len there.
  assert.deepEqual(await call('admission', 'setState', { vllm_version: '0.6.3' }), { ok: true });
  const v0 = await call('admission', 'result');
  assert.equal(v0.engine, 'V0');
  assert.deepEqual(v0, await page.evaluate(() => KvPanels.evaluate(window.kvTest.handles.admission.getState())));
  assert.deepEqual(await call('admission', 'setState', { enforce_eager: true, vllm_version: '0.21.0' }), { ok: true });
  const eager = await call('admission', 'result');
  assert.equal(eager.cuda_graph_bytes, 0);
  assert.equal(eager.cuda_graph_in_budget, false);
  await settle();
  await shoot(page, 'admission', 'panels-admission-eager.png');

  // The slider sets max_model_len; its "default" button (right of the slider) unsets it again.
  const [x, y, w, h] = (await call('admission', 'layout')).max_model_len;
  const box = await (await page.$('#admission')).boundingBox();
  await page.mouse.click(box.x + x + w * 0.1, box.y + y + h / 2);
  await settle();
  const moved = (await call('admission', 'getState')).max_model_len;
  assert.ok(Number.isInteger(moved), `max_model_len set by the slider (${moved})`);
  await page.mouse.click(box.x + x + w - 20, box.y + y + h / 2);
  await settle();
  assert.equal((await call('admission', 'getState')).max_model_len, null, 'the default button unsets it');
  await call('admission', 'setState', { enforce_eager: false });
  await page.mouse.move(2, 2);
  await settle();
  assert.deepEqual(errors, []);
});

test('the pickers list the whole catalog', async () => {
  const catalog = await page.evaluate(() => KvPanels.catalog());
  // A part asked alone (what the knobs and twins ask for as the page starts) is the whole's key.
  assert.deepEqual(await page.evaluate(() => KvPanels.catalog('fields')), catalog.fields);
  assert.deepEqual(await page.evaluate(() => KvPanels.catalog('defaults')), catalog.defaults);
  assert.equal((await page.evaluate(() => KvPanels.catalog('everything'))).error.field, 'part');
  assert.ok(catalog.models.length > 3 && catalog.gpus.length > 3, 'more than the lesson\'s three of each');
  // Every catalog entry is accepted and evaluates, so a picker entry never leads to a rejection.
  for (const m of catalog.models) {
    const r = await page.evaluate((id) => KvPanels.evaluate({ model: id }), m.id);
    assert.ok(!r.error, `${m.id}: ${JSON.stringify(r.error)}`);
  }
  for (const g of catalog.gpus) {
    const r = await page.evaluate((id) => KvPanels.evaluate({ gpu: id }), g.id);
    assert.ok(!r.error, `${g.id}: ${JSON.stringify(r.error)}`);
  }
  // The GPU combo opened: every GPU is in the list (a screenshot for the record).
  const [x, y, w, h] = (await call('admission', 'layout')).gpu;
  const box = await (await page.$('#admission')).boundingBox();
  await page.mouse.click(box.x + x + w / 2, box.y + y + h / 2);
  await settle();
  saveArtifact('panels-admission-gpu-picker.png', await page.screenshot());
  await page.keyboard.press('Escape');
  await page.mouse.move(2, 2);
  await settle();
  assert.equal((await call('admission', 'getState')).gpu, 'H100');
  assert.deepEqual(errors, []);
});

test('the theme follows prefers-color-scheme', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await settle();
  for (const name of panelNames) {
    const png = await shoot(page, name, `panels-${name}-dark.png`);
    assert.deepEqual(png.pixel(3, 3), [0x1a, 0x1b, 0x1e], `${name}: dark background`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle();
  assert.deepEqual(decodePng(await (await page.$('#admission')).screenshot()).pixel(3, 3), [255, 255, 255]);
});

test('HiDPI: the backing store follows devicePixelRatio', async () => {
  const { page: hidpi, errors: hidpiErrors } = await openPage({ deviceScaleFactor: 2 });
  await settle(hidpi);
  const [css, backing] = await hidpi.$eval('#admission', (c) => [c.clientWidth, c.width]);
  assert.equal(backing, Math.round(css * 2));
  assert.ok(Math.abs(await hidpi.$eval('#admission', (c) => c.height - c.clientHeight * 2)) <= 1);
  // Every panel's context starts with the atlas of its own ratio: the glyphs are drawn at ratio 2
  // only, not at ratio 1 as well.
  assert.equal(await hidpi.evaluate(() => KvPanels.drawStats().atlases), 1);
  saveArtifact('panels-admission@2x.png', await (await hidpi.$('#admission')).screenshot());
  assert.deepEqual(hidpiErrors, []);
  await hidpi.close();
});

test('site/css/palette.css is the module palette', () => {
  const generated = fs.readFileSync(path.join(root, 'build/wasm/palette.css'), 'utf8');
  const checkedIn = fs.readFileSync(path.join(root, 'site/css/palette.css'), 'utf8');
  assert.equal(checkedIn, generated, 'refresh it: node wasm/palette_css.mjs build/wasm/kvcache.js site/css/palette.css');
});

test('sizes and timings (reported)', (t) => {
  const gz = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  metrics.module_bytes = fs.statSync(moduleFile).size;
  metrics.module_gzip_bytes = gz(moduleFile);
  metrics.loader_bytes = fs.statSync(loaderFile).size;
  metrics.loader_gzip_bytes = gz(loaderFile);
  t.diagnostic(JSON.stringify(metrics));
  assert.ok(metrics.first_frame_ms > 0);
  assert.deepEqual(errors, []);
});

test('in a sandboxed frame (an opaque origin, no CORS headers) the module loads from its script copy', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-sandbox-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title>' +
    '<iframe id="f" sandbox="allow-scripts" src="site/embed.html?panel=admission" style="width:720px;height:900px"></iframe>');
  const lms = await serve({ '/site/': path.join(root, 'build/site'), '/': dir });
  const p = await browser.newPage();
  const errs = watchErrors(p);
  const failed = [];
  p.on('requestfailed', (r) => failed.push(r.url()));
  try {
    await p.goto(`${lms.url}/index.html`);
    let frame;
    for (let i = 0; i < 100 && !frame; ++i) {
      frame = p.frames().find((f) => f.url().includes('embed.html'));
      if (!frame) await p.waitForTimeout(100);
    }
    await frame.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
    assert.equal(await frame.evaluate(() => self.origin), 'null');
    assert.equal(lms.requests.filter((r) => r.endsWith('/kvcache.wasm.js')).length, 1);
    assert.equal(lms.requests.filter((r) => r.endsWith('/kvcache.wasm')).length, 0);
    // Fonts need CORS in an opaque origin (site/README.md says so); nothing else may fail.
    assert.deepEqual(failed.filter((u) => !u.endsWith('.woff2')), []);
    assert.deepEqual(errs.filter((e) => !/font|ERR_FAILED/.test(e)), []);
  } finally {
    await p.close();
    await lms.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// A long session, bounded (issue 25, point 7): the reader moves every knob in the sentences, plays
// the serving panel, pastes a config.json and an engine log, scrolls the lesson down and back and
// reads each section in turn, again and again for KV_SOAK_S seconds (CI runs the short default). After the first round has
// warmed everything up, the module's memory, the page's JS heap and the WebGL contexts stay within
// stated bounds, and no error reaches the console.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { watchErrors, root, useSite, readSection } from './harness.mjs';

const SOAK_S = Number(process.env.KV_SOAK_S || 40);
const WASM_GROWTH_BYTES = 16 << 20;  // after round one: a few pages of allocator slack, never a leak's slope
const JS_GROWTH_BYTES = 64 << 20;
const CONFIG = fs.readFileSync(path.join(root, 'tests/fuzz/corpus/config/Mixtral-8x7B-Instruct-v0.1.json'), 'utf8');
const LOG = fs.readFileSync(path.join(root, 'tests/fuzz/corpus/log/planner-h100-qwen3-30b-a3b.log'), 'utf8');

const site = useSite();

// Counts the WebGL contexts the page creates and loses, whoever asks for them, and the losses the
// page asks for itself (a panel far off screen gives its context back: kvpanels.js).
function countContexts() {
  window.kvContexts = { made: 0, lost: 0, released: 0 };
  let patched = false;
  const countReleases = (ctx) => {
    const ext = ctx.getExtension('WEBGL_lose_context');
    if (!ext || patched) return;
    patched = true;
    const proto = Object.getPrototypeOf(ext), lose = proto.loseContext;
    proto.loseContext = function () { window.kvContexts.released++; return lose.call(this); };
  };
  const original = HTMLCanvasElement.prototype.getContext;
  const seen = new WeakSet();
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    const ctx = original.call(this, kind, ...rest);
    if (ctx && /webgl/.test(kind) && !seen.has(this)) {
      seen.add(this);
      window.kvContexts.made++;
      countReleases(ctx);
      this.addEventListener('webglcontextlost', () => window.kvContexts.lost++);
    }
    return ctx;
  };
}

async function submit(page, formId) {
  await page.evaluate((id) => { document.querySelector(`#${id} .kv-custom__message`).textContent = ''; }, formId);
  await page.click(`#${formId} button[type="submit"]`);
  await page.waitForFunction((id) => document.querySelector(`#${id} .kv-custom__message`).textContent.length > 0, formId, { timeout: 30000 });
}

// One round takes every path the same way each time, so that round one reaches the page's working
// memory: the knobs, the serving panel's playback, a pasted config and log; then every panel back
// on the text's settings and every reading section read in turn, each loading its scenario (a run
// for the serving panel), after a scroll down the page and back that gives contexts back and takes them again.
async function round(page) {
  const knobs = await page.$$('.kv-knob[role="slider"]');
  assert.ok(knobs.length >= 4, `${knobs.length} knobs in the sentences`);
  for (const knob of knobs) {
    await knob.scrollIntoViewIfNeeded();
    await knob.focus();
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft', 'Escape']) await page.keyboard.press(key);
  }
  await page.evaluate(() => window.KvLesson.panels.serving && window.KvLesson.panels.serving.play(true, 0));
  await page.waitForTimeout(500);
  await page.evaluate(() => window.KvLesson.panels.serving && window.KvLesson.panels.serving.play(false));
  if (!(await page.evaluate(() => document.querySelector('#your-own').open))) await page.click('#your-own summary');
  await page.fill('#kv-own-config', CONFIG);
  await submit(page, 'kv-own-model');
  await page.click('#kv-own-model [data-kv-reset="model_config"]');
  await page.fill('#kv-own-log-text', LOG);
  await submit(page, 'kv-own-log');
  for (const back of await page.$$('.kv-panel__back')) if (await back.isVisible()) await back.click();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (const direction of [1, -1])
    for (let k = 0; k <= 16; k++) {
      const y = direction > 0 ? (height * k) / 16 : height - (height * k) / 16;
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(60);
    }
  const sections = await page.evaluate(() => window.KvLesson.sections.length);
  for (let index = 0; index < sections; index++) await readSection(page, index);
}

const measure = (page) => page.evaluate(() => ({
  wasm: window.KvPanels.drawStats().wasm_heap_bytes,
  js: performance.memory ? performance.memory.usedJSHeapSize : 0,
  made: window.kvContexts.made,
  lost: window.kvContexts.lost,
  released: window.kvContexts.released,
  notes: document.querySelectorAll('.kv-panel__lost').length,
}));

test(`a ${SOAK_S} s session of scrolling, knobs, playing and pasting keeps memory and contexts bounded`, { timeout: (SOAK_S + 240) * 1000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.addInitScript(countContexts);
  await page.goto(`${site.server.url}/`);
  await page.waitForFunction(() => window.KvLesson && window.KvLesson.panels.admission, null, { timeout: 60000 });
  await round(page);  // every panel mounted, every path taken once
  const first = await measure(page);
  const panels = await page.evaluate(() => document.querySelectorAll('canvas').length);
  const started = Date.now();
  let rounds = 1, last = first;
  while (Date.now() - started < SOAK_S * 1000) {
    await round(page);
    last = await measure(page);
    rounds++;
  }
  console.log(`soak: ${rounds} rounds in ${((Date.now() - started) / 1000).toFixed(0)} s; wasm heap ${first.wasm} -> ${last.wasm} bytes, ` +
    `JS heap ${first.js} -> ${last.js}, contexts made ${last.made} (lost ${last.lost}, ${last.released} of them given back off screen) for ${panels} canvases`);
  assert.ok(rounds >= 2, `${rounds} rounds`);
  assert.ok(last.wasm - first.wasm <= WASM_GROWTH_BYTES, `the module's memory grew ${last.wasm - first.wasm} bytes after round one`);
  assert.ok(last.js - first.js <= JS_GROWTH_BYTES, `the JS heap grew ${last.js - first.js} bytes after round one`);
  assert.ok(last.made <= panels, `${last.made} WebGL contexts for ${panels} canvases`);
  assert.equal(last.lost, last.released, 'every context lost was one the page gave back off screen');
  assert.equal(last.notes, 0, 'no panel says its context was taken');
  assert.deepEqual(errors, []);
  await page.close();
});

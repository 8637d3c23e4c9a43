// Benchmark, not a test (scripts/bench runs it): the same module the page loads, timed in Node
// (one evaluation, a 1,000-point prompt sweep, 2,000 chat requests simulated), and the lesson page
// in headless Chromium: navigation to the first panel frame, the median of five fresh loads, served
// over http as a host would (the .wasm streamed) and opened from disk.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve, launchBrowser, root } from '../browser/harness.mjs';

const site = path.join(root, 'build/site');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(repeats, body) {
  const times = [];
  for (let i = 0; i < repeats; i++) { const t = performance.now(); body(i); times.push(performance.now() - t); }
  return median(times);
}

const require = createRequire(import.meta.url);
const kv = await require(path.join(site, 'js/kvcache.js'))({ wasmBinary: fs.readFileSync(path.join(site, 'js/kvcache.wasm')) });
const tools = await require(path.join(site, 'js/kvtools.js'))({ wasmBinary: fs.readFileSync(path.join(site, 'js/kvtools.wasm')) });
const base = { model: 'Qwen3-8B', gpu: 'H100' };
const one = time(2001, (i) => kv.evaluate(JSON.stringify({ ...base, prompt_tokens: 1024 + i })));
const curve = time(51, () => tools.sweepBatch(JSON.stringify(base)));
const simulate = time(5, () => kv.simulate(JSON.stringify(base), JSON.stringify({ workload: 'chat', requests: 2000 })));
console.log(`wasm in Node: one evaluation through the page API (JSON in, the whole result and its log out) ${(one * 1000).toFixed(0)} us; ` +
  `the batch curve (evaluations inside the tools' module) ${curve.toFixed(2)} ms; ` +
  `2,000 chat requests simulated ${simulate.toFixed(1)} ms`);

const server = await serve({ '/': site });
const browser = await launchBrowser();
for (const [label, url] of [['http', `${server.url}/`], ['file://', pathToFileURL(path.join(site, 'index.html')).href]]) {
  const firsts = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.KvPanels && (KvPanels.drawStats() || {}).first_frame_at_ms > 0,
      null, { timeout: 60000 });
    firsts.push(await page.evaluate(() => KvPanels.drawStats().first_frame_at_ms));
    await context.close();
  }
  console.log(`page over ${label}: navigation to the first panel frame ${median(firsts).toFixed(0)} ms (median of 5: ${firsts.map((x) => x.toFixed(0)).join(', ')})`);
}
await browser.close();
await server.close();

// Benchmark, not a test (scripts/bench runs it): the same module the page loads, timed in Node
// (one evaluation, a 1,000-point prompt sweep, 2,000 chat requests simulated), and the lesson page
// in headless Chromium: navigation to the first panel frame, the median of five fresh loads after
// an unmeasured one, served over http as a host would (the .wasm streamed) and opened from disk.
//   node tests/bench/bench_page.mjs [--baseline DIR]
// --baseline: another build's site (a worktree of an earlier commit), loaded over http in turn with
// this one, five times each, and the ratio of the two medians printed (issue 23 compares them so).
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
async function firstFrameMs(url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.KvPanels && (KvPanels.drawStats() || {}).first_frame_at_ms > 0,
    null, { timeout: 60000 });
  const ms = await page.evaluate(() => KvPanels.drawStats().first_frame_at_ms);
  await context.close();
  return ms;
}
const line = (xs) => `${median(xs).toFixed(0)} ms (median of 5: ${xs.map((x) => x.toFixed(0)).join(', ')})`;
const baselineAt = process.argv.indexOf('--baseline');
if (baselineAt > 0 && !process.argv[baselineAt + 1]) throw new Error('--baseline needs a site folder');
const baseline = baselineAt > 0 ? await serve({ '/': path.resolve(process.argv[baselineAt + 1]) }) : null;
const urls = [['http', `${server.url}/`], ['file://', pathToFileURL(path.join(site, 'index.html')).href]];
if (baseline) urls.push(['http, the baseline', `${baseline.url}/`]);
// One unmeasured load of each first: a browser's first navigation also pays for its own start
// (the GPU process's GL, its caches: 1.7-2.3 s here against 0.8-1.0 s after), and it fell on
// whichever page came first, this one.
for (const [, url] of urls) await firstFrameMs(url);
const firsts = urls.map(() => []);
for (let i = 0; i < 5; i++) for (let k = 0; k < urls.length; k++) firsts[k].push(await firstFrameMs(urls[k][1]));
urls.forEach(([label], k) => console.log(`page over ${label}: navigation to the first panel frame ${line(firsts[k])}`));
if (baseline) console.log(`navigation to the first panel frame over http: ${(median(firsts[0]) / median(firsts[2])).toFixed(2)}x the baseline's`);
await browser.close();
await server.close();
await baseline?.close();

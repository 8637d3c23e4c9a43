// Benchmark, not a test: the lesson's long tasks and what runs in them (issue 23 asks for none over
// 50 ms). Loads the lesson over http on a phone-sized window with the CPU slowed 4x (Lighthouse's
// mobile profile), scrolls to the end a screen at a time, and reads Chrome's trace: every main-thread
// task over 50 ms, with the functions the sampling profiler saw most in it (self time).
//   node tests/bench/long_tasks.mjs [--slowdown N] [--save-trace FILE] [--site DIR]
// (--site: another build's site, e.g. a worktree of the previous commit, for a comparison in one run)
import path from 'node:path';
import { serve, launchBrowser, root } from '../browser/harness.mjs';

const slowdown = Number(process.argv[process.argv.indexOf('--slowdown') + 1]) || 4;
const siteAt = process.argv.indexOf('--site');
if (siteAt > 0 && !process.argv[siteAt + 1]) throw new Error('--site needs a site folder');
const server = await serve({ '/': siteAt > 0 ? path.resolve(process.argv[siteAt + 1]) : path.join(root, 'build/site') });
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline',
  'v8.execute', 'disabled-by-default-v8.cpu_profiler'] });
await page.goto(`${server.url}/`, { waitUntil: 'load' });
await page.waitForTimeout(3000);
// Down the page a screen at a time, as a reader scrolls: each panel mounts as it comes near.
const screens = await page.evaluate(() => Math.ceil(document.body.scrollHeight / innerHeight));
for (let i = 1; i <= screens; i++) {
  await page.evaluate((k) => window.scrollTo(0, k * innerHeight), i);
  await page.waitForTimeout(250);
}
await page.waitForTimeout(1500);
const traceText = await browser.stopTracing();
const keep = process.argv.indexOf('--save-trace');
if (keep > 0) (await import('node:fs')).writeFileSync(process.argv[keep + 1], traceText);
const trace = JSON.parse(traceText);
await browser.close();
await server.close();

const events = trace.traceEvents;
const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.tid === main.tid && e.pid === main.pid && e.dur > 50000);

// The sampling profile arrives in chunks: nodes (id, callFrame, parent) and samples with time deltas.
const nodes = new Map(), samples = [];
let t = 0;
// Each thread of the page (a worker too) has a profile of its own, its node ids numbered afresh: only
// the main thread's, found by the Profile event's thread and its chunks by the profile's id.
const profile = events.find((x) => x.name === 'Profile' && x.pid === main.pid && x.tid === main.tid);
for (const e of events.filter((x) => x.name === 'ProfileChunk' && x.pid === main.pid && x.id === profile.id)) {
  if (!t) t = profile.args.data.startTime;
  const data = e.args.data.cpuProfile || {};
  for (const n of data.nodes || []) nodes.set(n.id, n.callFrame);
  (data.samples || []).forEach((id, i) => { t += e.args.data.timeDeltas[i]; samples.push([t, id]); });
}
// Issue 23 counts the tasks after the first contentful paint; those before it (the HTML's parse and first
// layout) are listed too, marked.
const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === main.pid);
const name = (f) => f ? `${f.functionName || '(anonymous)'} ${(f.url || '').split('/').pop()}` : '?';
let total = 0, after = 0, afterTotal = 0;
for (const task of tasks) {
  const counts = new Map();
  for (const [at, id] of samples) if (at >= task.ts && at <= task.ts + task.dur) counts.set(name(nodes.get(id)), (counts.get(name(nodes.get(id))) || 0) + 1);
  const all = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, c]) => `${n} ${Math.round(100 * c / all)}%`);
  total += task.dur / 1000 - 50;
  const late = !fcp || task.ts + task.dur > fcp.ts;
  if (late) [after, afterTotal] = [after + 1, afterTotal + task.dur / 1000 - 50];
  console.log(`${(task.dur / 1000).toFixed(0).padStart(5)} ms at ${((task.ts - tasks[0].ts) / 1000).toFixed(0).padStart(6)} ms${late ? '' : ' (before FCP)'}: ${top.join(', ')}`);
}
console.log(`${tasks.length} tasks over 50 ms at ${slowdown}x slowdown; blocking time (each task's part past 50 ms) ${total.toFixed(0)} ms`);
console.log(`after the first contentful paint: ${after} tasks, ${afterTotal.toFixed(0)} ms past 50${fcp ? '' : ' (no FCP in the trace: all counted)'}`);

// Benchmark, not a test: Lighthouse (pinned in package.json) on the lesson page served as a host
// would serve it (scripts/serve.mjs: the .br or .gz scripts/precompress wrote, correct types), with
// its default mobile profile and the desktop preset, three runs each. Prints each run's category
// scores, LCP, TBT and CLS, then each profile's medians; scores move a few points between runs.
//   node tests/bench/lighthouse.mjs [runs]
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Launcher } from 'chrome-launcher';
import { root, serveLikeRun, chromiumFlags } from '../browser/harness.mjs';

const runs = Math.max(1, Number(process.argv[2]) || 3);
const server = await serveLikeRun(path.join(root, 'build/site'));
const url = `${server.url}/`;
const lighthouse = path.join(root, 'node_modules/.bin/lighthouse');
const flags = chromiumFlags(Launcher.defaultFlags().find((f) => f.startsWith('--disable-features='))).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
for (const [label, extra] of [['mobile', []], ['desktop', ['--preset=desktop']]]) {
  const rows = [];
  for (let run = 1; run <= runs; run++) {
    const out = path.join(os.tmpdir(), `kv-lighthouse-${label}.json`);
    try {
      await promisify(execFile)(lighthouse, [url, '--quiet', '--output=json', `--output-path=${out}`, `--chrome-flags=${flags}`, ...extra],
        { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, timeout: 240000 });
    } catch (e) { console.log(`lighthouse ${label} ${run}: failed (${String(e.message).split('\n')[0]})`); continue; }
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    const score = (c) => Math.round((report.categories[c]?.score ?? 0) * 100);
    const a = report.audits;
    const row = { performance: score('performance'), tbt_ms: a['total-blocking-time'].numericValue,
      lcp_s: a['largest-contentful-paint'].numericValue / 1000, cls: a['cumulative-layout-shift'].numericValue };
    rows.push(row);
    console.log(`lighthouse ${label} ${run}: performance ${row.performance}, accessibility ${score('accessibility')}, ` +
      `best practices ${score('best-practices')}, SEO ${score('seo')}; LCP ${a['largest-contentful-paint'].displayValue}, ` +
      `TBT ${a['total-blocking-time'].displayValue}, CLS ${a['cumulative-layout-shift'].displayValue}, ` +
      `transferred ${Math.round(a['total-byte-weight'].numericValue / 1024)} KiB`);
  }
  if (rows.length) console.log(`lighthouse ${label}, median of ${rows.length}: performance ${median(rows.map((r) => r.performance))}, ` +
    `TBT ${Math.round(median(rows.map((r) => r.tbt_ms)))} ms, LCP ${median(rows.map((r) => r.lcp_s)).toFixed(1)} s, ` +
    `CLS ${median(rows.map((r) => r.cls)).toFixed(3)}`);
}
server.close();

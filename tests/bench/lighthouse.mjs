// Benchmark, not a test: Lighthouse (pinned in package.json) on the lesson page served as a host
// would serve it (gzip, correct types), with its default mobile profile and the desktop preset.
// Prints each category's score and the page's LCP, TBT and CLS; scores move a few points between runs.
//   node tests/bench/lighthouse.mjs
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { root } from '../browser/harness.mjs';

const site = path.join(root, 'build/site');
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2',
  '.wasm': 'application/wasm', '.json': 'application/json' };
const server = http.createServer((req, res) => {
  let file = path.join(site, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!file.startsWith(site) || !fs.existsSync(file)) { res.writeHead(404).end(); return; }
  const body = fs.readFileSync(file);
  const type = types[path.extname(file)] || 'application/octet-stream';
  const gzip = /gzip/.test(req.headers['accept-encoding'] || '') && !file.endsWith('.woff2');
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'max-age=3600', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  res.end(gzip ? zlib.gzipSync(body, { level: 9 }) : body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;
const lighthouse = path.join(root, 'node_modules/.bin/lighthouse');
const flags = '--headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader --disable-background-networking ' +
  '--disable-component-update --disable-sync --no-first-run';
for (const [label, extra] of [['mobile', []], ['desktop', ['--preset=desktop']]]) {
  const out = path.join(os.tmpdir(), `kv-lighthouse-${label}.json`);
  try {
    // Asynchronously: the server above runs in this process and must keep answering.
    await promisify(execFile)(lighthouse, [url, '--quiet', '--output=json', `--output-path=${out}`, `--chrome-flags=${flags}`, ...extra],
      { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, timeout: 240000 });
  } catch (e) { console.log(`lighthouse ${label}: failed (${String(e.message).split('\n')[0]})`); continue; }
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  const score = (c) => Math.round((report.categories[c]?.score ?? 0) * 100);
  const a = report.audits;
  console.log(`lighthouse ${label}: performance ${score('performance')}, accessibility ${score('accessibility')}, ` +
    `best practices ${score('best-practices')}, SEO ${score('seo')}; LCP ${a['largest-contentful-paint'].displayValue}, ` +
    `TBT ${a['total-blocking-time'].displayValue}, CLS ${a['cumulative-layout-shift'].displayValue}, ` +
    `transferred ${Math.round(a['total-byte-weight'].numericValue / 1024)} KiB`);
}
server.close();

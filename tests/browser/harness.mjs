// Shared by the browser tests: a static file server on 127.0.0.1 and Debian's Chromium driven by
// playwright-core, with the flags this machine needs (no network, software WebGL2).
import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const artifactsDir = path.join(root, 'build/test-artifacts');

const mimeTypes = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.otf': 'font/otf', '.txt': 'text/plain',
};

// Serves `mounts` ({'/': dir, '/sub/': otherDir}) on an ephemeral loopback port. Returns
// {url, close}. Every request is recorded in `requests` so tests can check what a page loaded.
// `headers` are added to every response (e.g. Access-Control-Allow-Origin for sandboxed pages).
export async function serve(mounts, headers = {}) {
  const requests = [];
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(urlPath);
    const prefix = prefixes.find((p) => urlPath.startsWith(p));
    if (!prefix) { res.writeHead(404).end(); return; }
    let file = path.join(mounts[prefix], urlPath.slice(prefix.length));
    if (!file.startsWith(path.resolve(mounts[prefix]))) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { ...headers, 'Content-Type': mimeTypes[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(r)) };
}

// The panel test pages (tests/browser/pages) beside the built module and the site's scripts and CSS.
export function servePanelPages() {
  return serve({
    '/': path.join(root, 'tests/browser/pages'),
    '/build/': path.join(root, 'build/wasm'),
    '/site/js/': path.join(root, 'site/js'),
    '/site/css/': path.join(root, 'site/css'),
  });
}

// scripts/serve.mjs on `dir` in a child process, as scripts/run starts it: {url, close()}, the url
// without its trailing slash.
export async function serveLikeRun(dir) {
  const child = spawn(process.execPath, [path.join(root, 'scripts/serve.mjs'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => { const m = /at (http:\/\/\S+?)\/ /.exec(String(chunk)); if (m) resolve(m[1]); });
    child.on('exit', (code) => reject(new Error(`scripts/serve.mjs exited with ${code}`)));
  });
  return { url, close: () => child.kill() };
}

// Chromium as the tests and benchmarks run it: headless WebGL2 on SwiftShader, nothing fetched
// in the background, and no omnibox popup: Chromium 156 builds that WebUI (a renderer of its own
// loading about 400 chrome:// scripts) as a browser starts or opens a window, beside the page under
// test on this machine's two cores (the first panel frame: 1,434-2,061 ms with it in 6 loads, where
// it came in 5; 1,155-1,622 ms without it).
const omniboxPopup = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];
const baseFlags = ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

// The flags with the launcher's own --disable-features list (playwright's, chrome-launcher's) kept:
// Chromium takes only the last such list it is given, and ours comes after the launcher's.
export function chromiumFlags(launcherDisabledFlag) {
  const theirs = launcherDisabledFlag ? launcherDisabledFlag.slice('--disable-features='.length).split(',') : [];
  return [...baseFlags, `--disable-features=${[...theirs, ...omniboxPopup].join(',')}`];
}

// Playwright's list, read from the command line of a bare launch (it is not public API).
let playwrightDisabled = null;
function playwrightDisabledFlag() {
  playwrightDisabled ??= chromium.launchServer({ executablePath: '/usr/bin/chromium', args: baseFlags }).then(async (server) => {
    const flag = server.process().spawnargs.find((a) => a.startsWith('--disable-features='));
    await server.close();
    return flag;
  });
  return playwrightDisabled;
}

// playwright-core starts Chromium on a new, empty profile of its own (it refuses a
// --user-data-dir of ours), which is what the flags assume.
export async function launchBrowser() {
  const args = [...chromiumFlags(await playwrightDisabledFlag()), '--disable-quic'];
  return chromium.launch({ executablePath: '/usr/bin/chromium', args });
}

// Collects console errors, page errors and CSP violations of a page.
export function watchErrors(page) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  return errors;
}

export function saveArtifact(name, data) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  fs.writeFileSync(path.join(artifactsDir, name), data);
  return path.join(artifactsDir, name);
}

// axe-core's WCAG 2.1 A and AA rules over a page (opened in a context with bypassCSP: the page's
// CSP forbids the inline script axe is injected as). Returns one line per violation.
const axeSource = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
export async function axeViolations(page) {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} nodes, e.g. ${v.nodes[0].html.slice(0, 120)}`);
  });
}

// For a test file that needs the built site and one browser: both start before its tests and stop
// after them. Read `site.server.url` and `site.browser` inside the tests.
export function useSite() {
  const site = { server: null, browser: null };
  before(async () => {
    site.server = await serve({ '/': path.join(root, 'build/site') });
    site.browser = await launchBrowser();
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

// Scrolls so that section `index`'s first block sits on the reading line (a third of the way down).
// A panel mounting above can still move the text after the scroll, so the scroll is retried on
// the block's new position a few times before the section is said not to be reached.
// The serving panels take their runs a slice per animation frame (wasm/app/app.cpp, on_work): waits
// until no mounted panel of the lesson is still taking one.
export async function runsLanded(page) {
  await page.waitForFunction(() => Object.values(window.KvLesson.panels).every((h) => !h || !h.result().simulating), null,
    { timeout: 60000 });
}

export async function readSection(page, index) {
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.evaluate((i) => {
      const el = window.KvLesson.sections[i].start;
      window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight / 3 + 4);
    }, index);
    try {
      await page.waitForFunction((i) => window.KvLesson.reading === i, index, { timeout: 6000 });
      await runsLanded(page);
      return;
    } catch { /* scrolled again below */ }
  }
  const where = await page.evaluate((i) => ({ reading: window.KvLesson.reading,
    top: window.KvLesson.sections[i].start.getBoundingClientRect().top, line: window.innerHeight / 3 }), index);
  throw new Error(`section ${index} never reached the reading line: ${JSON.stringify(where)}`);
}

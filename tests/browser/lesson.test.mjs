// The lesson site (build/site, written by scripts/build) in headless Chromium. Checks that the page
// loads with no console error and no CSP violation and asks for nothing outside its own origin;
// that every baked figure equals the native CLI's value for its binding, formatted by the same
// core formats (through the wasm module's formatValue); that no figure is typed into the prose by
// hand; that clicking a figure sets its panel and the URL hash, and the hash restores it; that
// embed.html honours its parameters and reports bad ones by name while the rest keeps working;
// that a host page binds figures through kvembed-host.js; and that the site works from a sub-path
// and from file://. Saves screenshots at 390 and 1,440 px and the measured figures
// (build/test-artifacts/lesson-*.png, lesson-metrics.json).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { serve, launchBrowser, watchErrors, saveArtifact, root } from './harness.mjs';

const site = path.join(root, 'build/site');
const cli = path.join(root, 'build/native/kvcache');
const require = createRequire(import.meta.url);
const metrics = {};

let server, browser, hostDir;

// Records CSP violations from the first script on (the event fires in the page, not in the console).
const recordViolations = () => {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
  });
};

async function open(url, viewport = { width: 1440, height: 900 }) {
  const page = await browser.newPage({ viewport });
  await page.addInitScript(recordViolations);
  const errors = watchErrors(page);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  return { page, errors, requests };
}

const mounted = (page, kind) =>
  page.waitForFunction((k) => window.KvLesson && window.KvLesson.panels[k], kind, { timeout: 60000 });

async function mountAll(page) {
  // Scroll through the page so every panel comes near the viewport and mounts.
  const height = await page.evaluate(() => document.body.scrollHeight);
  for (let y = 0; y < height; y += 700) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
  }
  for (const kind of ['admission', 'phases', 'batching']) await mounted(page, kind);
  await page.evaluate(() => window.scrollTo(0, 0));
}

const cliCache = new Map();
function native(scenario) {
  const key = JSON.stringify(scenario);
  if (!cliCache.has(key)) cliCache.set(key, JSON.parse(execFileSync(cli, ['--scenario', key], { encoding: 'utf8' })));
  return cliCache.get(key);
}

// The generator's expression language (site/generator/bindings.hpp), evaluated over CLI results.
function evaluateExpression(text, lookup) {
  const tokens = text.match(/\d+\.?\d*(?:[eE][-+]?\d+)?|[A-Za-z_][A-Za-z0-9_.]*|[-+*/()]/g);
  let i = 0;
  const factor = () => {
    const t = tokens[i++];
    if (t === '(') { const v = expr(); i++; return v; }
    if (/^[\d.]/.test(t)) return Number(t);
    return lookup(t);
  };
  const term = () => { let v = factor(); while (tokens[i] === '*' || tokens[i] === '/') v = tokens[i++] === '*' ? v * factor() : v / factor(); return v; };
  const expr = () => { let v = term(); while (tokens[i] === '+' || tokens[i] === '-') v = tokens[i++] === '+' ? v + term() : v - term(); return v; };
  return expr();
}

before(async () => {
  assert.ok(fs.existsSync(path.join(site, 'index.html')), 'build/site is missing: run scripts/build');
  // A course author's page, for kvembed-host.js: the site copied under kv/ beside it.
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-host-'));
  fs.writeFileSync(path.join(hostDir, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>
<p>An <a href="#" id="set-fp8" data-kv-set='{"kv_cache_dtype": "fp8", "prompt_tokens": 32768}'>FP8 cache</a> holds
<span id="seqs" data-kv-field="max_resident_sequences" data-kv-format="count">?</span> sequences, step
<span id="step" data-kv-target="kv" data-kv-field="decode_step_s" data-kv-format="duration">?</span>.</p>
<p id="errs" data-kv-errors></p>
<a href="#" id="set-bad" data-kv-set='{"prompt_tokens": -5}'>bad</a>
<iframe data-kv-embed id="kv" src="kv/embed.html?panel=admission" width="700" height="600"></iframe>
<script src="kv/js/kvembed-host.js"></script>`);
  server = await serve({ '/course/kv/': site, '/host/kv/': site, '/host/': hostDir, '/': site });
  browser = await launchBrowser();
});

after(async () => {
  fs.writeFileSync(saveArtifact('lesson-metrics.json', ''), JSON.stringify(metrics, null, 2) + '\n');
  await browser?.close();
  await server?.close();
  if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
});

test('the lesson loads with no console error, no CSP violation and nothing from outside its origin', async () => {
  const { page, errors, requests } = await open(`${server.url}/`);
  await mounted(page, 'admission');
  metrics.load_to_first_panel_ms = Math.round(await page.evaluate(() => window.KvLesson.firstPanelMs));
  await mountAll(page);
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  for (const url of requests) assert.ok(url.startsWith(server.url + '/'), `request outside the origin: ${url}`);
  assert.deepEqual(await page.evaluate(() => window.KvLesson.errors), []);

  // Page weight: every file the page loaded, gzip-compressed.
  const files = [...new Set(requests.map((u) => new URL(u).pathname))];
  let raw = 0, gzip = 0;
  for (const p of files) {
    const file = path.join(site, p.endsWith('/') ? p + 'index.html' : p);
    const data = fs.readFileSync(file);
    raw += data.length;
    gzip += zlib.gzipSync(data, { level: 9 }).length;
  }
  metrics.page_files = files;
  metrics.page_weight_raw_bytes = raw;
  metrics.page_weight_gzip_bytes = gzip;
  await page.close();
});

test('every baked figure equals the native CLI for its binding, formatted by the same core formats', async () => {
  const { page } = await open(`${server.url}/`);
  const figures = await page.evaluate(() => Array.from(document.querySelectorAll('.kv-fig')).map((el) => ({
    text: el.textContent, field: el.dataset.field, format: el.dataset.format, expr: el.dataset.expr,
    refs: JSON.parse(el.dataset.refs), source: el.dataset.source, scenario: el.dataset.scenario,
  })));
  const scenarios = await page.evaluate(() => JSON.parse(document.querySelector('main').dataset.scenarios));
  const declared = await page.evaluate(() => Number(document.querySelector('main').dataset.figureCount));
  await page.close();
  const facts = JSON.parse(fs.readFileSync(path.join(root, 'content/lesson/facts.json'), 'utf8')).facts;
  const units = { GiB: 2 ** 30, MiB: 2 ** 20, KiB: 2 ** 10 };
  const kv = await require(path.join(site, 'js/kvcache.js'))();

  assert.equal(figures.length, declared);
  assert.ok(figures.length >= 150, `only ${figures.length} figures`);
  metrics.bound_figures = figures.length;
  const lookup = (ref) => {
    const [source, ...pathParts] = ref.split('.');
    if (source === 'fact') {
      const f = facts[pathParts.join('.')];
      return f.value * (units[f.unit] || 1);
    }
    assert.ok(scenarios[source], `unknown scenario ${source}`);
    return pathParts.reduce((o, k) => o[k], native(scenarios[source]));
  };
  for (const f of figures) {
    const where = `${f.source} {{${f.expr} | ${f.format}}}`;
    if (f.scenario) {
      const first = f.refs.find((r) => !r.startsWith('fact.'));
      assert.deepEqual(JSON.parse(f.scenario), scenarios[first.split('.')[0]], where);
    }
    if (f.format === 'text') {
      assert.equal(f.text, String(lookup(f.refs[0])), where);
    } else {
      const value = evaluateExpression(f.expr, lookup);
      assert.equal(f.text, kv.formatValue(value, f.format), where);
    }
  }
});

test('no figure is typed into the prose by hand', async () => {
  const { page } = await open(`${server.url}/`);
  const text = await page.evaluate(() => {
    const article = document.querySelector('main').cloneNode(true);
    article.querySelectorAll('.kv-fig, .kv-snippet, figure.kv-panel .kv-panel__status, pre').forEach((el) => el.remove());
    return article.textContent;
  });
  await page.close();
  // Names that contain digits but are not figures: models, GPUs, dtypes, metric names, years.
  const names = /Qwen3-(8|14|32)B|[AH][12]00|FP8|BF16|DCGM_\w+|config\.json|k_proj|v_proj|kvembed-host\.js|\b20(19|25)\b/g;
  const leftover = text.replace(names, '').match(/[^\s]*\d[^\s]*/g);
  assert.deepEqual(leftover, null, `digits outside bindings: ${leftover}`);
});

// The prose is the lesson's own: no run of ten words from the brief (facts and figures carry over,
// sentences do not). The brief lives outside the repository; without it the check is skipped.
const brief = path.resolve(root, '../shared/seed/000_fbb80bd54744d07c.txt');
test('no run of ten words is copied from the brief', { skip: !fs.existsSync(brief) && 'the brief is not here' }, async () => {
  const words = (t) => t.replace(/[\u2018\u2019]/g, "'").toLowerCase().match(/[a-z0-9']+/g) || [];
  const b = words(fs.readFileSync(brief, 'utf8'));
  const runs = new Set();
  for (let i = 0; i + 10 <= b.length; ++i) runs.add(b.slice(i, i + 10).join(' '));
  const { page } = await open(`${server.url}/`);
  const p = words(await page.evaluate(() => document.body.innerText));
  await page.close();
  const copied = [];
  for (let i = 0; i + 10 <= p.length; ++i) if (runs.has(p.slice(i, i + 10).join(' '))) copied.push(p.slice(i, i + 10).join(' '));
  assert.deepEqual(copied, []);
});

test('clicking a figure loads its scenario into its panel, into view, and into the URL hash', async () => {
  const { page, errors } = await open(`${server.url}/`, { width: 390, height: 844 });
  const scenarios = await page.evaluate(() => JSON.parse(document.querySelector('main').dataset.scenarios));
  // The generator's embed snippet and the page script write the same query for the same scenario.
  const snippet = () => page.textContent('.kv-snippet code');
  const expected = await page.evaluate(() => KvState.toQuery('phases', JSON.parse(document.querySelector('main').dataset.scenarios).rag,
    JSON.parse(document.querySelector('main').dataset.defaults)));
  assert.ok((await snippet()).includes(`src="embed.html?${expected}"`), await snippet());

  // "12" sequences at 32,768-token prompts, in the first chapter.
  const fig = page.locator('a.kv-fig[data-scenario-name="long_prompt"][data-field="max_resident_sequences"]').first();
  await fig.scrollIntoViewIfNeeded();
  await fig.click();
  await mounted(page, 'admission');
  await page.waitForFunction(() => window.KvLesson.panels.admission.getState().prompt_tokens === 32768);
  const state = await page.evaluate(() => window.KvLesson.panels.admission.getState());
  for (const [k, v] of Object.entries(scenarios.long_prompt)) if (v !== null) assert.deepEqual(state[k], v, k);
  await page.waitForFunction(() => location.hash.includes('prompt_tokens=32768'));
  assert.match(await page.evaluate(() => location.hash), /^#panel=admission&prompt_tokens=32768$/);
  await page.waitForTimeout(800);  // smooth scrolling
  const box = await page.locator('#panel-admission').boundingBox();
  assert.ok(box.y < 844 && box.y + box.height > 0, 'the panel is in view');
  assert.equal(await fig.evaluate((el) => el.classList.contains('is-active')), true);

  // A ratio cycles through its scenarios: A100, then H100.
  const ratio = page.locator('a.kv-fig[data-expr="a100_14b.ttft_s / h100_14b.ttft_s"]');
  await ratio.scrollIntoViewIfNeeded();
  await ratio.click();
  await mounted(page, 'phases');
  await page.waitForFunction(() => window.KvLesson.panels.phases.getState().gpu === 'A100');
  await ratio.click();
  await page.waitForFunction(() => window.KvLesson.panels.phases.getState().gpu === 'H100');
  assert.match(await page.evaluate(() => location.hash), /^#panel=phases&concurrent_requests=64&model=Qwen3-14B$/);
  // The snippet follows the panel the reader changed last.
  assert.ok((await snippet()).includes('src="embed.html?panel=phases&concurrent_requests=64&model=Qwen3-14B"'), await snippet());

  // The hash restores the panel on load.
  const restored = await open(`${server.url}/#panel=batching&tensor_parallel_size=4&prompt_tokens=16384`);
  await mounted(restored.page, 'batching');
  const s = await restored.page.evaluate(() => window.KvLesson.panels.batching.getState());
  assert.equal(s.tensor_parallel_size, 4);
  assert.equal(s.prompt_tokens, 16384);
  assert.deepEqual(restored.errors, []);
  await restored.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed.html honours its parameters, query or hash', async () => {
  const { page, errors } = await open(`${server.url}/embed.html?panel=phases&model=Qwen3-14B&prompt_tokens=2048#gpu=A100`,
    { width: 760, height: 700 });
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.KvEmbed.kind), 'phases');
  const state = await page.evaluate(() => window.KvEmbed.handle.getState());
  assert.equal(state.model, 'Qwen3-14B');
  assert.equal(state.prompt_tokens, 2048);
  assert.equal(state.gpu, 'A100');
  assert.deepEqual(await page.evaluate(() => window.KvEmbed.messages), []);
  assert.equal(await page.isVisible('.kv-embed__messages'), false);
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  fs.writeFileSync(saveArtifact('lesson-embed.png', ''), await page.screenshot());
  await page.close();
});

test('embed.html names each bad parameter with what is allowed, and applies the rest', async () => {
  const { page, errors } = await open(
    `${server.url}/embed.html?panel=roofline&prompt_tokens=0&gpu=B200&force_mha=maybe&promt_tokens=5&concurrent_requests=64`,
    { width: 760, height: 800 });
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  const messages = await page.evaluate(() => window.KvEmbed.messages);
  const byField = Object.fromEntries(messages.map((m) => [m.field, m.message]));
  assert.deepEqual(Object.keys(byField).sort(), ['force_mha', 'gpu', 'panel', 'prompt_tokens', 'promt_tokens']);
  assert.match(byField.panel, /admission, phases, batching/);
  assert.match(byField.prompt_tokens, /prompt_tokens.*1 to 1,048,576/);
  assert.match(byField.gpu, /A100/);
  assert.match(byField.force_mha, /true or false/);
  assert.match(byField.promt_tokens, /prompt_tokens/);  // the list of fields names the right one
  assert.equal(await page.evaluate(() => window.KvEmbed.kind), 'admission');
  const state = await page.evaluate(() => window.KvEmbed.handle.getState());
  assert.equal(state.concurrent_requests, 64);
  assert.equal(state.prompt_tokens, 4096);
  assert.equal(await page.isVisible('.kv-embed__messages'), true);
  assert.equal(await page.locator('.kv-embed__messages li').count(), 5);
  assert.deepEqual(errors, []);
  fs.writeFileSync(saveArtifact('lesson-embed-errors.png', ''), await page.screenshot());
  await page.close();
});

test('a host page binds its own figures to an embedded panel through kvembed-host.js', async () => {
  const { page, errors } = await open(`${server.url}/host/`, { width: 900, height: 900 });
  await page.waitForFunction(() => document.getElementById('seqs').textContent === '93', null, { timeout: 60000 });
  assert.equal(await page.textContent('#step'), '13.8 ms');
  await page.click('#set-fp8');
  await page.waitForFunction(() => document.getElementById('seqs').textContent === '24');
  assert.equal(await page.textContent('#step'), '27.9 ms');
  await page.click('#set-bad');
  await page.waitForFunction(() => /prompt_tokens/.test(document.getElementById('errs').textContent));
  assert.equal(await page.textContent('#seqs'), '24');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the site works from a sub-path', async () => {
  const { page, errors, requests } = await open(`${server.url}/course/kv/`);
  await mounted(page, 'admission');
  assert.ok((await page.locator('.kv-fig').count()) >= 150);
  for (const url of requests) assert.ok(url.startsWith(`${server.url}/course/kv/`), `left the sub-path: ${url}`);
  const href = await page.getAttribute('#panel-admission [data-embed-link]', 'href');
  await page.goto(new URL(href, page.url()).href);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  await page.close();
});

test('the site works from an offline copy opened as file://', async () => {
  const { page, errors } = await open(pathToFileURL(path.join(site, 'index.html')).href);
  await mounted(page, 'admission');
  assert.equal(await page.evaluate(() => window.KvLesson.panels.admission.getState().model), 'Qwen3-8B');
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  await page.close();
});

test('screenshots at 390 and 1,440 px', async () => {
  for (const [name, viewport] of [['390', { width: 390, height: 844 }], ['1440', { width: 1440, height: 900 }]]) {
    const { page, errors } = await open(`${server.url}/`, viewport);
    await mountAll(page);
    await page.waitForTimeout(500);
    fs.writeFileSync(saveArtifact(`lesson-${name}-top.png`, ''), await page.screenshot());
    fs.writeFileSync(saveArtifact(`lesson-${name}-full.png`, ''), await page.screenshot({ fullPage: true }));
    // The section with the second panel, scrolled to its middle: the panel stays beside the text.
    await page.locator('#two-phases-opposite-bottlenecks').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 600));
    await page.waitForTimeout(300);
    fs.writeFileSync(saveArtifact(`lesson-${name}-phases.png`, ''), await page.screenshot());
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${name}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

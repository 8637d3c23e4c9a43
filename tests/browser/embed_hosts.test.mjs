// embed.html's host list (`?host=ORIGIN`): by default any framing page may drive the panel and
// hears its changes (the data is public); a course site that lists its origin keeps both to itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launchBrowser, watchErrors, root } from './harness.mjs';

const site = path.join(root, 'build/site');
let server, browser, hostDir;

// A host page with one embedded panel, whose address adds `extra` to embed.html's query.
function hostPage(extra) {
  return `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>
<a href="#" id="set" data-kv-set='{"prompt_tokens": 32768}'>long prompts</a>
<span id="prompt" data-kv-field="scenario.prompt_tokens" data-kv-format="count">?</span>
<iframe data-kv-embed id="kv" src="kv/embed.html?panel=admission${extra}" width="700" height="600"></iframe>
<script src="kv/js/kvembed-host.js"></script>`;
}

before(async () => {
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-hosts-'));
  server = await serve({ '/open/kv/': site, '/kept/kv/': site, '/other/kv/': site, '/': hostDir });
  fs.mkdirSync(path.join(hostDir, 'open'));
  fs.mkdirSync(path.join(hostDir, 'kept'));
  fs.mkdirSync(path.join(hostDir, 'other'));
  fs.writeFileSync(path.join(hostDir, 'open/index.html'), hostPage(''));
  fs.writeFileSync(path.join(hostDir, 'kept/index.html'), hostPage(`&host=${encodeURIComponent(server.url)}`));
  fs.writeFileSync(path.join(hostDir, 'other/index.html'), hostPage('&host=https%3A%2F%2Fcourse.example.edu'));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
});

async function drive(pathname) {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}${pathname}`);
  const frame = page.frameLocator('#kv');
  await frame.locator('.kv-embed__main.is-mounted').waitFor({ timeout: 60000 });
  await page.click('#set');
  return { page, errors };
}

test('any host drives the panel by default, and a listed host does too', async () => {
  for (const pathname of ['/open/', '/kept/']) {
    const { page, errors } = await drive(pathname);
    await page.waitForFunction(() => document.getElementById('prompt').textContent === '32,768', null, { timeout: 60000 });
    assert.deepEqual(errors, [], pathname);
    await page.close();
  }
});

test('a page that is not the listed host neither drives the panel nor hears it', async () => {
  const { page } = await drive('/other/');
  await page.waitForTimeout(1500);
  assert.equal(await page.textContent('#prompt'), '?');
  const state = await page.frames().find((f) => f.url().includes('embed.html')).evaluate(
    () => window.KvEmbed.handle.getState());
  assert.notEqual(state.prompt_tokens, 32768);
  assert.deepEqual(await page.frames().find((f) => f.url().includes('embed.html')).evaluate(() => window.KvEmbed.hosts),
    ['https://course.example.edu']);
  await page.close();
});

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

// The ways of writing host= that go wrong (issue 25): each page's frame address adds this.
const MISTAKES = (url) => ({
  bare: '&host=course.example.edu',                                  // no scheme: not an origin
  null: '&host=null',                                                // an opaque origin cannot be posted to
  slash: `&host=${encodeURIComponent(url.replace('http://', 'HTTP://') + '/')}`,   // the right one, with a capital scheme and a slash
  hash: '&host=https%3A%2F%2Fcourse.example.edu#host=' + encodeURIComponent(url),          // the hash tries to add the page
});

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
  const mounts = { '/open/kv/': site, '/kept/kv/': site, '/other/kv/': site, '/': hostDir };
  for (const name of Object.keys(MISTAKES(''))) mounts[`/${name}/kv/`] = site;
  server = await serve(mounts);
  fs.mkdirSync(path.join(hostDir, 'open'));
  fs.mkdirSync(path.join(hostDir, 'kept'));
  fs.mkdirSync(path.join(hostDir, 'other'));
  fs.writeFileSync(path.join(hostDir, 'open/index.html'), hostPage(''));
  fs.writeFileSync(path.join(hostDir, 'kept/index.html'), hostPage(`&host=${encodeURIComponent(server.url)}`));
  fs.writeFileSync(path.join(hostDir, 'other/index.html'), hostPage('&host=https%3A%2F%2Fcourse.example.edu'));
  for (const [name, extra] of Object.entries(MISTAKES(server.url))) {
    fs.mkdirSync(path.join(hostDir, name));
    fs.writeFileSync(path.join(hostDir, name, 'index.html'), hostPage(extra));
  }
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

test('a panel that cannot start says why on the host page, and a click on it is dropped', async () => {
  const page = await browser.newPage();
  await page.route('**/open/kv/js/kvcache.js', (route) => route.abort());   // the module's loader
  await page.goto(`${server.url}/open/`);
  await page.frameLocator('#kv').locator('.kv-embed__main.is-failed').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => window.KvEmbedHost.problems.some((p) => p.includes('could not start')), null, { timeout: 10000 });
  const problem = await page.evaluate(() => window.KvEmbedHost.problems.find((p) => p.includes('could not start')));
  assert.match(problem, /^<iframe id="kv">: The panel could not start: KvPanels: could not load .*kvcache\.js$/);
  await page.click('#set');
  await page.waitForTimeout(500);
  assert.equal(await page.textContent('#prompt'), '?');
  await page.close();
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

test('a malformed host= is named on the panel, a slash or capitals do not matter, and the hash never widens the list', async () => {
  const frameOf = (page) => page.frames().find((f) => f.url().includes('embed.html'));
  for (const name of ['bare', 'null']) {
    const { page, errors } = await drive(`/${name}/`);
    await page.waitForTimeout(1000);
    const embed = await frameOf(page).evaluate(() => ({ hosts: window.KvEmbed.hosts, messages: window.KvEmbed.messages,
      mounted: !!window.KvEmbed.handle, shown: document.querySelector('.kv-embed__messages').textContent }));
    assert.ok(embed.mounted, `${name}: the panel mounts`);
    assert.deepEqual(embed.hosts, [], name);
    assert.equal(embed.messages[0].field, 'host', name);
    assert.match(embed.shown, /is not an origin; write the scheme and the host/, name);
    // Listed but wrong keeps the panel to itself: the host page neither drives it nor hears it.
    assert.equal(await page.textContent('#prompt'), '?', name);
    assert.notEqual((await frameOf(page).evaluate(() => window.KvEmbed.handle.getState())).prompt_tokens, 32768, name);
    assert.deepEqual(errors, [], name);
    await page.close();
  }
  const slash = await drive('/slash/');
  await slash.page.waitForFunction(() => document.getElementById('prompt').textContent === '32,768', null, { timeout: 60000 });
  assert.deepEqual(await frameOf(slash.page).evaluate(() => window.KvEmbed.hosts), [server.url]);
  assert.deepEqual(slash.errors, []);
  await slash.page.close();
  const hash = await drive('/hash/');
  await hash.page.waitForTimeout(1500);
  assert.equal(await hash.page.textContent('#prompt'), '?');
  const embed = await frameOf(hash.page).evaluate(() => ({ hosts: window.KvEmbed.hosts, messages: window.KvEmbed.messages }));
  assert.deepEqual(embed.hosts, ['https://course.example.edu']);
  assert.match(embed.messages.map((m) => m.message).join(' '), /host is read from the address’s query only/);
  await hash.page.close();
});

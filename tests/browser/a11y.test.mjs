// Accessibility rules (axe-core, pinned in package.json): the WCAG 2.1 A and AA rules on the lesson
// page and on embed.html for every panel, once the panels have mounted. axe reads the DOM (prose,
// figures, forms, headings, contrast of the page's text); what is drawn inside a canvas it cannot
// see, which is why the panels' knobs and results must also exist as accessible DOM (issue 14).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launchBrowser, axeViolations, root } from './harness.mjs';

let server, browser;

before(async () => {
  server = await serve({ '/': path.join(root, 'build/site') });
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

async function violations(url, ready, colorScheme = 'light') {
  // The page's CSP forbids inline scripts; axe is injected by the test, not by the page.
  const context = await browser.newContext({ bypassCSP: true, colorScheme });
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(ready, null, { timeout: 60000 });
    // The panels' native twins (kvtwin.js) open, so their controls are checked too.
    await page.evaluate(() => document.querySelectorAll('details.kv-twin').forEach((d) => { d.open = true; }));
    return await axeViolations(page);
  } finally {
    await context.close();
  }
}

test('the lesson page has no WCAG 2.1 A or AA violations', async () => {
  assert.deepEqual(await violations(`${server.url}/`, () => window.KvLesson && window.KvLesson.panels.admission), []);
});

for (const kind of ['admission', 'phases', 'batching', 'serving']) {
  test(`embed.html?panel=${kind} has no WCAG 2.1 A or AA violations`, async () => {
    assert.deepEqual(await violations(`${server.url}/embed.html?panel=${kind}`, () => window.KvEmbed && window.KvEmbed.handle), []);
  });
}

test('embed.html?panel=admission in the dark colour scheme has no WCAG 2.1 A or AA violations', async () => {
  const ready = () => window.KvEmbed && window.KvEmbed.handle;
  assert.deepEqual(await violations(`${server.url}/embed.html?panel=admission`, ready, 'dark'), []);
});

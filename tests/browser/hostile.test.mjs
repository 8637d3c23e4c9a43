// Hostile and mistaken input from a link (issue 25): what a short address asks for is bounded before
// any work starts, refused by name, and the rest of the address still applies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launchBrowser, watchErrors, root } from './harness.mjs';

let server, browser;

before(async () => {
  server = await serve({ '/': path.join(root, 'build/site') });
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

test('a 160-character link asking for 20,000 requests of 40,960 tokens is refused by name, the rest kept', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const link = 'embed.html?panel=serving&workload=fixed&requests=20000&rate_per_s=10000&prompt_tokens=32768' +
    '&output_tokens=8192&model=Llama-3.1-8B&gpu=B200';
  assert.ok(link.length <= 160, `${link.length} characters`);
  await page.goto(`${server.url}/${link}`);
  await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle, null, { timeout: 60000 });
  const { state, result, messages } = await page.evaluate(() =>
    ({ state: window.KvEmbed.handle.getState(), result: window.KvEmbed.handle.result(), messages: window.KvEmbed.messages }));
  // Both budgets are named, with their limits, on the field that sizes the run.
  assert.ok(messages.length >= 1, JSON.stringify(messages));
  for (const m of messages) {
    assert.equal(m.field, 'requests');
    assert.equal(m.code, 'out_of_range');
    assert.match(m.message, /a simulated run (prefills|generates) at most [\d,]+/);
  }
  // What fits is kept: the model, the card, the workload and the rate; the run that remains is simulated.
  assert.equal(state.model, 'Llama-3.1-8B');
  assert.equal(state.gpu, 'B200');
  assert.equal(state.workload, 'fixed');
  assert.equal(state.rate_per_s, 10000);
  assert.equal(result.status, 'ok');
  assert.ok(result.simulation && result.simulation.finished > 0);
  // The problems are shown on the page, not only in the console.
  const shown = await page.evaluate(() => document.body.innerText);
  assert.match(shown, /a simulated run generates at most [\d,]+/);
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 25, point 6: a course page of twenty panel frames. Browsers keep about sixteen live WebGL
// contexts a page and drop the oldest past that for good; each panel gives its context back while
// far from the window and takes it again as it nears (kvpanels.js, watchContext), so every frame
// draws when the reader scrolls to it, and the page holds few contexts at any time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launchBrowser, watchErrors, root } from './harness.mjs';

const FRAMES = 20;
const kinds = ['admission', 'phases', 'batching', 'serving'];
let server, browser, hostDir;

before(async () => {
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-contexts-'));
  const frames = Array.from({ length: FRAMES }, (_, i) =>
    `<h2>Part ${i + 1}</h2><iframe id="f${i}" src="kv/embed.html?panel=${kinds[i % kinds.length]}" width="700" height="900" style="border:0;display:block"></iframe>`);
  fs.writeFileSync(path.join(hostDir, 'twenty.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>A long course page</title>
<body style="margin:16px;font-family:sans-serif">${frames.join('\n')}</body>`);
  server = await serve({ '/host/kv/': path.join(root, 'build/site'), '/host/': hostDir });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
});

// Whether frame `i`'s panel holds a live context.
const live = (frame) => frame.evaluate(() => !document.querySelector('canvas').getContext('webgl2').isContextLost());

test(`${FRAMES} panel frames on one page all draw when scrolled to, and only those near the window hold a context`, async () => {
  const page = await browser.newPage({ viewport: { width: 760, height: 900 } });
  const errors = watchErrors(page);
  try {
    await page.goto(`${server.url}/host/twenty.html`);
    const frames = [];
    for (let i = 0; i < FRAMES; i++) {
      const frame = await (await page.$(`#f${i}`)).contentFrame();
      await frame.waitForSelector('.kv-embed__main.is-mounted', { timeout: 120000 });
      frames.push(frame);
    }
    // The first frame draws. While all twenty mount, the page can briefly hold more contexts than
    // the browser keeps (the far frames give theirs back on their first visibility report), and the
    // browser may drop the first frame's; it then asks for it again within 2 s (watchContext).
    await frames[0].waitForFunction(() => !document.querySelector('canvas').getContext('webgl2').isContextLost() &&
      window.KvPanels.drawStats().frames > 0, null, { timeout: 15000 })
      .catch(() => assert.fail('the first frame did not draw'));
    // Frames near the window drew and keep their picture; those far below gave their contexts
    // back, and must draw again as the reader reaches them.
    const heldAtStart = await Promise.all(frames.map(live));
    assert.equal(heldAtStart[FRAMES - 1], false, 'the last frame, far below, holds no context');
    for (let i = 1; i < FRAMES; i++) {
      await frames[i].evaluate(() => window.KvPanels.resetDrawStats());
      await page.$eval(`#f${i}`, (f) => f.scrollIntoView({ block: 'start' }));
      await frames[i].waitForFunction((mustDraw) => !document.querySelector('canvas').getContext('webgl2').isContextLost() &&
        (!mustDraw || window.KvPanels.drawStats().frames > 0), !heldAtStart[i], { timeout: 15000 })
        .catch(() => assert.fail(`frame ${i} did not draw when scrolled to`));
      assert.equal(await frames[i].$('.kv-panel__lost'), null, `frame ${i} shows no loss note`);
      const holding = (await Promise.all(frames.map(live))).filter(Boolean).length;
      assert.ok(holding <= 6, `at frame ${i}, ${holding} frames hold a context`);
    }
    // And back up: the first frame draws again.
    await frames[0].evaluate(() => window.KvPanels.resetDrawStats());
    await page.$eval('#f0', (f) => f.scrollIntoView({ block: 'start' }));
    await frames[0].waitForFunction(() => window.KvPanels.drawStats().frames > 0, null, { timeout: 15000 })
      .catch(() => assert.fail('the first frame did not draw again'));
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a panel whose context the browser drops while it is on screen asks for it back and draws again', async () => {
  const page = await browser.newPage({ viewport: { width: 760, height: 900 } });
  const errors = watchErrors(page);
  try {
    await page.goto(`${server.url}/host/kv/embed.html?panel=phases`);
    await page.waitForSelector('.kv-embed__main.is-mounted', { timeout: 120000 });
    // As the browser does past its limit: the context goes, with nothing of the page's asking.
    await page.evaluate(() => {
      window.KvPanels.resetDrawStats();
      document.querySelector('canvas').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext();
    });
    await page.waitForSelector('.kv-panel__lost', { timeout: 5000 });
    await page.waitForFunction(() => !document.querySelector('canvas').getContext('webgl2').isContextLost() &&
      window.KvPanels.drawStats().frames > 0 && !document.querySelector('.kv-panel__lost'), null, { timeout: 15000 });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// The lesson is a page of its own with six panels, well under the browser's limit: it keeps every
// context while the reader scrolls to the end and back, since giving one back and taking it again
// are long tasks on a software renderer (tests/bench/long_tasks.mjs: three fewer at 1x).
test('the lesson keeps each panel\u2019s context while the reader scrolls to its end and back', async () => {
  const page = await browser.newPage({ viewport: { width: 760, height: 900 } });
  const errors = watchErrors(page);
  try {
    await page.goto(`${server.url}/host/kv/index.html`);
    const ids = await page.$$eval('figure.kv-panel', (figures) => figures.map((f) => f.getAttribute('data-panel')));
    assert.ok(ids.length >= 6, `the lesson has ${ids.length} panels`);
    for (const id of ids) {
      await page.locator(`#panel-${id}`).scrollIntoViewIfNeeded();
      await page.waitForFunction((k) => window.KvLesson && window.KvLesson.panels[k], id, { timeout: 60000 });
    }
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(500);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(500);
    const lost = await page.evaluate((list) => list.filter((k) => window.KvLesson.panels[k].canvas.getContext('webgl2').isContextLost()), ids);
    assert.deepEqual(lost, [], 'panels whose context was given back');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// The lesson on a phone (390×844, issue 24 point 7): nothing runs off the page sideways, every
// picture's label lies inside its picture and is drawn at 11 px or more, and no two of a
// picture's labels overlap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launchBrowser, root } from './harness.mjs';

let server, browser;

before(async () => {
  server = await serve({ '/': path.join(root, 'build/site') });
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

test('at 390 px nothing overflows sideways, and the pictures\' labels are inside, readable and apart', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  try {
    await page.goto(`${server.url}/`);
    await page.evaluate(() => document.fonts.ready);
    const report = await page.evaluate(() => {
      const wide = document.documentElement.scrollWidth - window.innerWidth;
      const pictures = Array.from(document.querySelectorAll('.kv-picture svg')).map((svg) => {
        const box = svg.getBoundingClientRect();
        const labels = Array.from(svg.querySelectorAll('text')).map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                   px: parseFloat(getComputedStyle(t).fontSize) * box.width / svg.viewBox.baseVal.width };
        });
        return { id: svg.id || svg.closest('figure').id, box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom }, labels };
      });
      return { wide, pictures };
    });
    assert.ok(report.wide <= 0, `the page is ${report.wide} px wider than the screen`);
    assert.ok(report.pictures.length >= 6);
    for (const p of report.pictures) {
      for (const l of p.labels) {
        const where = `${p.id}: "${l.text}"`;
        assert.ok(l.left >= p.box.left - 1 && l.right <= p.box.right + 1, `${where} runs past the picture's side`);
        assert.ok(l.top >= p.box.top - 1 && l.bottom <= p.box.bottom + 1, `${where} runs past the picture's top or bottom`);
        assert.ok(l.px >= 11, `${where} is drawn at ${l.px.toFixed(1)} px`);
      }
      // Labels may touch; none covers another by more than 2 px each way.
      for (let i = 0; i < p.labels.length; ++i)
        for (let j = i + 1; j < p.labels.length; ++j) {
          const a = p.labels[i], b = p.labels[j];
          const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          assert.ok(across <= 2 || down <= 2, `${p.id}: "${a.text}" and "${b.text}" overlap`);
        }
    }
  } finally {
    await page.close();
  }
});

test('on a phone at three device pixels a CSS pixel, each panel\'s backing store is its box, not a height it had while mounting', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/`);
    // A panel mounts whole, then its section's focus shortens it: two heights in one task.
    for (const kind of ['phases', 'batching']) {
      await page.locator(`#panel-${kind} canvas`).scrollIntoViewIfNeeded();
      await page.waitForFunction((k) => window.KvLesson && window.KvLesson.panels[k], kind, { timeout: 60000 });
      await page.waitForFunction((k) => {
        const c = document.querySelector(`#panel-${k} canvas`);
        return Math.abs(c.height - Math.round(c.getBoundingClientRect().height * 3)) <= 3;
      }, kind, { timeout: 10000 }).catch(() => {});
      const [box, store] = await page.evaluate((k) => {
        const c = document.querySelector(`#panel-${k} canvas`);
        return [c.getBoundingClientRect().height, c.height];
      }, kind);
      assert.ok(Math.abs(store - Math.round(box * 3)) <= 3, `${kind}: a ${box}-px box drawn from a ${store}-px store`);
    }
  } finally {
    await context.close();
  }
});

// A phone's panels at three device pixels are tall drawing buffers (about 7 million pixels each): the
// lesson keeps every context on a desktop (contexts.test.mjs) but on a phone gives far panels' back
// past 16 million pixels in all (kvpanels.js, keepsAll), and the one in view keeps its own.
test('on a phone at three device pixels a CSS pixel, far panels give their drawing buffers back', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/`);
    const ids = await page.$$eval('figure.kv-panel', (figures) => figures.map((f) => f.getAttribute('data-panel')));
    for (const id of ids) {
      await page.locator(`#panel-${id} canvas`).scrollIntoViewIfNeeded();
      await page.waitForFunction((k) => window.KvLesson && window.KvLesson.panels[k], id, { timeout: 60000 });
    }
    await page.waitForTimeout(500);
    const lost = await page.evaluate((list) => list.map((k) => window.KvLesson.panels[k].canvas.getContext('webgl2').isContextLost()), ids);
    assert.equal(lost[0], true, `the first panel, screens above, keeps its context (${JSON.stringify(lost)})`);
    assert.equal(lost[lost.length - 1], false, 'the panel in view has its context');
  } finally {
    await context.close();
  }
});

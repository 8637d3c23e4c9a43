// The lesson without JavaScript and on paper (issue 14): every baked figure and the baked SVG
// pictures show with scripts off; printed, the page drops canvases, panel chrome, forms and the
// skip link and keeps the prose, its figures and the pictures.
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

// What the reader can see: figures (shown, with text), pictures (shown, titled) and the rest.
function survey() {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const figures = [...document.querySelectorAll('.kv-fig')];
  const pictures = [...document.querySelectorAll('figure.kv-picture svg[role="img"]')];
  return {
    expectedFigures: Number(document.querySelector('main').dataset.figureCount),
    figures: figures.length,
    hiddenFigures: figures.filter((el) => !shown(el) || !el.textContent.trim()).map((el) => `figure ${el.dataset.fig} {{${el.dataset.expr}}}`),
    pictures: pictures.filter((svg) => shown(svg) && svg.getBoundingClientRect().height > 50 &&
      svg.querySelector('title')?.textContent.trim() && svg.querySelector('desc')?.textContent.trim()).length,
    canvasesShown: [...document.querySelectorAll('canvas')].filter(shown).length,
    panelsShown: [...document.querySelectorAll('figure.kv-panel, .kv-snippet, form, .kv-skip')].filter(shown).length,
  };
}

test('without JavaScript every baked figure and at least six titled pictures show', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/`);
    const s = await page.evaluate(survey);
    assert.ok(s.expectedFigures > 0);
    assert.equal(s.figures, s.expectedFigures);
    assert.deepEqual(s.hiddenFigures, []);
    assert.ok(s.pictures >= 6, `${s.pictures} pictures shown`);
    assert.equal(s.canvasesShown, 0);
  } finally {
    await context.close();
  }
});

test('printed, the page keeps prose, figures and pictures and drops canvases and panel controls', { timeout: 120000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => document.documentElement.classList.contains('kv-js'));
    const screen = await page.evaluate(survey);
    assert.ok(screen.canvasesShown > 0, 'the panels draw on screen');
    await page.emulateMedia({ media: 'print' });
    const print = await page.evaluate(survey);
    assert.equal(print.canvasesShown, 0);
    assert.equal(print.panelsShown, 0);
    assert.deepEqual(print.hiddenFigures, []);
    assert.ok(print.pictures >= 6, `${print.pictures} pictures printed`);
    // A reference's address follows its text on paper.
    const after = await page.evaluate(() => {
      const link = document.querySelector('main a[href^="http"]');
      return link ? getComputedStyle(link, '::after').content : null;
    });
    if (after !== null) assert.match(after, /\(.*https?:/);
  } finally {
    await context.close();
  }
});

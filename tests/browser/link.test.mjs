// Linked reading and layout stability on the lesson site (build/site) in headless Chromium:
// a concept word hovered or focused by keyboard sets its panel's highlight (read back through
// handle.concepts()); the pointer over a concept's part of the canvas marks the matching words;
// nothing is drawn while nothing changes; the admission panel draws the simulated DCGM readout that
// the real-system section reads; loading the page and mounting the first panels shifts the layout
// by less than 0.1 (cumulative layout shift) at 1280×800 and 390×844; on a phone the module is
// fetched only as the first panel nears; and each panel's space is reserved before it mounts.
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

const mounted = (page, id) => page.waitForFunction((k) => window.KvLesson && window.KvLesson.panels[k], id, { timeout: 60000 });
const concepts = (page, id) => page.evaluate((k) => window.KvLesson.panels[k].concepts(), id);
const frames = (page) => page.evaluate(() => window.KvPanels.drawStats().frames);

// The first word naming `concept` that the admission panel at the top serves.
const WORD = '.kv-chapter:first-of-type .kv-concept[data-concept="weights"]';

async function lesson(viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const errors = watchErrors(page);
  await page.goto(`${server.url}/`);
  await mounted(page, 'admission');
  await page.waitForTimeout(200);
  return { page, errors };
}

test('hovering a concept word highlights that concept in the panel beside it, and leaving clears it', async () => {
  const { page, errors } = await lesson();
  try {
    assert.equal((await concepts(page, 'admission')).highlight, null);
    // Bring the word into view first and let the section it scrolls to settle: the panel beside
    // the text then draws that section's part, which moves its caption (and the word) up.
    await page.$eval(WORD, (w) => w.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(600);
    await page.evaluate(() => window.KvPanels.resetDrawStats());
    await page.hover(WORD);
    await page.waitForFunction(() => window.KvLesson.panels.admission.concepts().highlight === 'weights');
    await page.waitForTimeout(100);
    assert.ok(await frames(page) >= 1, 'the panel redrew with the highlight');
    // The bar's weights segment is drawn where the panel says; the other concepts are there too.
    const { rects } = await concepts(page, 'admission');
    assert.ok(rects.weights.length >= 1 && rects['kv-used'].length >= 1, JSON.stringify(Object.keys(rects)));
    await page.mouse.move(2, 2);
    await page.waitForFunction(() => window.KvLesson.panels.admission.concepts().highlight === null);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('focusing a concept word from the keyboard highlights it; the word says what it does', async () => {
  const { page } = await lesson();
  try {
    const described = await page.$eval(WORD, (w) => ({
      tabIndex: w.tabIndex,
      description: document.getElementById(w.getAttribute('aria-describedby')).textContent,
    }));
    assert.equal(described.tabIndex, 0);
    assert.match(described.description, /panel beside the text/);
    // Tab from the page's start until a concept word has the focus.
    let concept = null;
    for (let i = 0; i < 80 && !concept; i++) {
      await page.keyboard.press('Tab');
      concept = await page.evaluate(() => document.activeElement.getAttribute('data-concept'));
    }
    assert.ok(concept, 'a concept word is reachable with Tab');
    await page.waitForFunction((c) => window.KvLesson.panels.admission.concepts().highlight === c, concept);
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => document.activeElement.getAttribute('data-concept'));
    await page.waitForFunction((c) => window.KvLesson.panels.admission.concepts().highlight === c, next);
  } finally {
    await page.close();
  }
});

test('the pointer over a concept on the canvas marks the words that name it', async () => {
  const { page } = await lesson();
  try {
    // The concept's part mid-window, clear of the key-results strip that sticks to the top.
    await page.evaluate(() => {
      const h = window.KvLesson.panels.admission;
      const [, y, , hh] = h.concepts().rects['kv-used'][0];
      window.scrollBy(0, h.canvas.getBoundingClientRect().top + y + hh / 2 - window.innerHeight / 2);
    });
    await page.waitForTimeout(200);
    const at = await page.evaluate(() => {
      const h = window.KvLesson.panels.admission;
      const r = h.canvas.getBoundingClientRect();
      const [x, y, w, hh] = h.concepts().rects['kv-used'][0];
      return { x: r.left + x + w / 2, y: r.top + y + hh / 2 };
    });
    await page.mouse.move(at.x, at.y);
    await page.waitForFunction(() => window.KvLesson.panels.admission.concepts().hovered === 'kv-used');
    await page.waitForFunction(() => document.querySelectorAll('.kv-concept.is-linked').length > 0);
    const marked = await page.$$eval('.kv-concept.is-linked', (ws) => ws.map((w) => w.getAttribute('data-concept')));
    assert.ok(marked.every((c) => c === 'kv-used'), marked.join());
    await page.mouse.move(at.x, 1);   // off the canvas, above it
    await page.waitForFunction(() => document.querySelectorAll('.kv-concept.is-linked').length === 0);
  } finally {
    await page.close();
  }
});

test('highlights draw only on change, refuse unknown concepts, and leave the panel idle', async () => {
  const { page } = await lesson();
  try {
    const h = (c) => page.evaluate((x) => window.KvLesson.panels.admission.highlight(x), c);
    assert.deepEqual(await h('kv-free'), { ok: true });
    await page.waitForTimeout(500);   // the frames that draw it
    await page.evaluate(() => window.KvPanels.resetDrawStats());
    assert.deepEqual(await h('kv-free'), { ok: true });   // the same highlight again
    await page.waitForTimeout(300);
    assert.equal(await frames(page), 0, 'the same highlight redraws nothing; an idle panel draws nothing');
    const refused = await h('kv_free');
    assert.equal(refused.error.field, 'concept');
    assert.equal((await concepts(page, 'admission')).highlight, 'kv-free');
    await h(null);
    await page.waitForTimeout(150);
    assert.equal((await concepts(page, 'admission')).highlight, null);
  } finally {
    await page.close();
  }
});

test('the admission panel draws the simulated DCGM readout the real-system section reads', async () => {
  const { page } = await lesson();
  try {
    // Only the DCGM readout draws compute (PIPE_TENSOR_ACTIVE) in the admission panel. Beside the
    // first chapter the panel draws first what its section reads; whole, it draws the readout too
    // (placement.test.mjs checks it comes first beside the real-system section).
    await page.evaluate(() => window.KvLesson.panels.admission.focus(null));
    await page.waitForTimeout(200);
    const { rects } = await concepts(page, 'admission');
    assert.ok(rects.compute && rects.compute.length === 1, JSON.stringify(rects.compute));
    assert.ok(rects.memory.length >= 2, 'DRAM_ACTIVE beside the bytes moved per step');
  } finally {
    await page.close();
  }
});

// The layout shift of loading the page, as Lighthouse counts it (no scrolling): shifts without
// recent input, summed (a bound on its worst 5 s session window), until the module has loaded and
// the panels near the top (on a wide screen, the first one) have mounted. Counted from the first
// contentful paint: before it the reader sees nothing move, and on this loaded machine the text
// faces can arrive before it (font-display: optional still takes them then) and lay the prose out
// again, which depends on the machine's load, not on the page. The two shifts this test once saw
// are gone: Inter arriving re-wrapped paragraphs set in a wider fallback (lesson.css now sets the
// text in a local face scaled to Inter's width), and at 390 px the scroll bar appearing after the
// first paint narrowed the column by its width (lesson.css reserves its gutter).
for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`loading the page and mounting the first panels shifts the layout by less than 0.1 and moves no panel frame at ${viewport.width}×${viewport.height}`, async () => {
    const page = await browser.newPage({ viewport });
    try {
      await page.addInitScript(() => {
        window.__shifts = [];
        window.__fcp = Infinity;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
        }).observe({ type: 'paint', buffered: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            if (e.hadRecentInput) continue;
            window.__shifts.push({ value: e.value, at: Math.round(e.startTime),
              sources: (e.sources || []).map((s) => [s.node && (s.node.className || s.node.nodeName || ''), Math.round(s.previousRect.y), Math.round(s.currentRect.y)]) });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${server.url}/`);
      // The module comes as the first panel or knob nears (lesson-knobs.js): on a phone none is near.
      const near = await page.evaluate(() => document.querySelector('figure.kv-panel').getBoundingClientRect().top < 2 * window.innerHeight);
      if (near) await mounted(page, 'admission');
      await page.waitForTimeout(near ? 1000 : 3000);
      const { shifts, fcp } = await page.evaluate(() => ({ shifts: window.__shifts, fcp: window.__fcp }));
      assert.ok(fcp < Infinity, 'the page painted');
      const seen = shifts.filter((shift) => shift.at >= fcp);
      const cls = seen.reduce((sum, shift) => sum + shift.value, 0);
      assert.ok(cls < 0.1, `CLS ${cls.toFixed(3)} after the first paint at ${Math.round(fcp)} ms: ${JSON.stringify(shifts)}`);
      // The key-results strip and "Controls as a form" come above a panel's frame as it mounts, into
      // room lesson.css keeps for them: a frame in view does not move (it moved 86 px down at 1280 px).
      if (near) {
        assert.equal(await page.$$eval('figure[data-panel="admission"] .kv-twin__strip', (s) => s.length), 1);
        const frameMoves = shifts.filter((shift) => shift.sources.some(([name]) => String(name).includes('kv-panel__frame')));
        assert.deepEqual(frameMoves, [], 'a panel frame moved as its panel mounted');
      }
    } finally {
      await page.close();
    }
  });
}

// On a phone the first panel and the first knob stand screens below the opening text: the module is
// not fetched while the reader reads it, and comes (the panel mounting, the knobs live) as they near.
test('at 390×844 the module is fetched only as the first panel nears, and then the panel mounts', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const errors = watchErrors(page);
  const fetched = [];
  page.on('request', (r) => { if (/kvcache\.(js|wasm)$/.test(r.url())) fetched.push(r.url().split('/').pop()); });
  try {
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    const top = await page.evaluate(() => document.querySelector('figure.kv-panel').getBoundingClientRect().top / window.innerHeight);
    assert.ok(top > 2, `the first panel starts ${top.toFixed(1)} screens down`);
    await page.waitForTimeout(3000);
    assert.deepEqual(fetched, [], 'nothing of the module before a panel nears');
    assert.equal(await page.evaluate(() => document.querySelectorAll('.kv-knob[role="slider"]').length), 0, 'the knobs are printed numbers');
    await page.evaluate(() => window.scrollTo(0, document.querySelector('figure.kv-panel').getBoundingClientRect().top + window.scrollY - window.innerHeight));
    await mounted(page, 'admission');
    assert.deepEqual([...new Set(fetched)].sort(), ['kvcache.js', 'kvcache.wasm']);
    await page.waitForFunction(() => document.querySelectorAll('.kv-knob[role="slider"]').length >= 4, null, { timeout: 30000 });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// Mounting moves nothing: each panel kind's canvas, before it mounts, already takes the height it
// then draws (lesson.css reserves it per kind and canvas width), to within 3%.
for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`each panel's space is reserved before it mounts at ${viewport.width}×${viewport.height}`, async () => {
    const page = await browser.newPage({ viewport });
    try {
      await page.goto(`${server.url}/`);
      const firsts = await page.evaluate(() => {
        const ids = {};
        for (const f of document.querySelectorAll('figure.kv-panel')) ids[f.dataset.kind] ??= f.dataset.panel;
        return Object.values(ids);
      });
      assert.equal(firsts.length, 4);
      for (const id of firsts) {
        const canvas = `figure[data-panel="${id}"] canvas`;
        const reserved = await page.$eval(canvas, (c) => c.getBoundingClientRect().height);
        await page.$eval(canvas, (c) => c.scrollIntoView({ block: 'start' }));
        await mounted(page, id);
        // What is reserved is the whole panel; beside the text, where it sticks in a column of its
        // own, it then draws its section's part first and shortens without moving any text.
        await page.evaluate((i) => window.KvLesson.panels[i].focus(null), id);
        // The panel redraws whole and reports its new height over its next frames: a fixed 300 ms
        // was too short once on a loaded CI machine (drawn still the focused 739 px), and so was 5 s
        // once (the phases panel still at its focused 465 px), so wait for the height to settle near
        // the reserved one (at most 15 s), then judge it.
        await page.waitForFunction(([c, r]) => Math.abs(document.querySelector(c).getBoundingClientRect().height - r) <= r * 0.03,
          [canvas, reserved], { timeout: 15000 }).catch(() => { /* the assertion below says by how much */ });
        const drawn = await page.$eval(canvas, (c) => c.getBoundingClientRect().height);
        assert.ok(Math.abs(drawn - reserved) <= drawn * 0.03, `${id}: reserved ${reserved} px, drawn ${drawn} px`);
      }
    } finally {
      await page.close();
    }
  });
}

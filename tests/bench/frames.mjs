// Benchmark, not a test: the main thread's time per panel frame, split into building it (ImGui, the
// panels, core calls) and handing it to WebGL, for the serving panel playing its run (3 s) and the
// admission panel redrawing as the pointer crosses its knobs (40 moves). Three rounds; with several
// built sites (an A/B against a worktree's build/site) the rounds alternate between them.
//   node tests/bench/frames.mjs [SITE_DIR ...]      (default build/site)
import path from 'node:path';
import { serve, launchBrowser, root } from '../browser/harness.mjs';

const sites = process.argv.length > 2 ? process.argv.slice(2) : [path.join(root, 'build/site')];
const browser = await launchBrowser();
const rows = new Map();
for (let round = 0; round < 3; round++) {
  for (const site of sites) {
    const server = await serve({ '/': path.resolve(site) });
    for (const panel of ['serving', 'admission']) {
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      await page.goto(`${server.url}/embed.html?panel=${panel}`);
      await page.waitForFunction(() => window.KvEmbed && window.KvEmbed.handle && !window.KvEmbed.handle.result().simulating,
        null, { timeout: 60000 });
      await page.waitForTimeout(1000);
      await page.evaluate(() => KvPanels.resetDrawStats());
      if (panel === 'admission') {
        for (let i = 0; i < 40; i++) {
          await page.mouse.move(100 + i * 20, 300 + (i % 5) * 30);
          await page.waitForTimeout(30);
        }
      } else {
        await page.waitForTimeout(3000);
      }
      const s = await page.evaluate(() => KvPanels.drawStats());
      const key = `${site} ${panel}`;
      if (!rows.has(key)) rows.set(key, []);
      rows.get(key).push(`${s.frames} frames, ${s.mean_ms.toFixed(2)} ms each: build ${(s.build_ms / s.frames).toFixed(2)}, ` +
        `GL ${(s.render_ms / s.frames).toFixed(2)}`);
      await page.close();
    }
    await server.close();
  }
}
await browser.close();
for (const [key, runs] of rows) console.log(`${key}\n  ${runs.join('\n  ')}`);

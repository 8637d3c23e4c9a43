// The release archives of scripts/package: the plain zip holds exactly the built site, and the
// SCORM 1.2 package imports as a course platform expects (imsmanifest.xml at the root naming the
// launch page and every file) and talks to the platform: inside a fake LMS that provides the
// SCORM 1.2 API in the frame above, the lesson reports "incomplete" when opened, "completed" once
// the reader reaches the last section, and finishes when the page goes away.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launchBrowser, watchErrors, root } from './harness.mjs';

let work, browser;

function unzip(archive, into) {
  execFileSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', archive, into]);
}
function listFiles(dir) {
  const out = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p); else out.push(path.relative(dir, p).split(path.sep).join('/'));
  } };
  walk(dir);
  return out.sort();
}

before(async () => {
  execFileSync(path.join(root, 'scripts/package'), { cwd: root, stdio: 'pipe' });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-package-'));
  unzip(path.join(root, 'build/package/kv-cache-lesson.zip'), path.join(work, 'site'));
  unzip(path.join(root, 'build/package/kv-cache-lesson-scorm12.zip'), path.join(work, 'lms/course'));
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); fs.rmSync(work, { recursive: true, force: true }); });

test('the plain zip holds the built site, byte for byte', () => {
  const built = path.join(root, 'build/site');
  const files = listFiles(built);
  assert.deepEqual(listFiles(path.join(work, 'site')), files);
  for (const f of files)
    assert.ok(fs.readFileSync(path.join(built, f)).equals(fs.readFileSync(path.join(work, 'site', f))), f);
});

test('the SCORM manifest names the launch page and every file of the package', () => {
  const course = path.join(work, 'lms/course');
  const manifest = fs.readFileSync(path.join(course, 'imsmanifest.xml'), 'utf8');
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /adlcp:scormtype="sco" href="index\.html"/);
  const listed = [...manifest.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]).sort();
  const present = listFiles(course).filter((f) => f !== 'imsmanifest.xml');
  assert.deepEqual(listed, present);
  assert.ok(present.includes('js/kvscorm.js'));
  assert.deepEqual(present.filter((f) => /\.(gz|br)$/.test(f)), [], 'a course platform serves files as they are; its index.html differs from the site\'s');
});

test('the SCORM copy is the lesson for students: the chapter for course authors is left out, the rest kept', () => {
  const heading = /<h2 id="([^"]+)"/g;
  const site = fs.readFileSync(path.join(work, 'site/index.html'), 'utf8');
  const course = fs.readFileSync(path.join(work, 'lms/course/index.html'), 'utf8');
  const siteHeadings = [...site.matchAll(heading)].map((m) => m[1]);
  const courseHeadings = [...course.matchAll(heading)].map((m) => m[1]);
  assert.ok(siteHeadings.includes('using-these-panels-in-your-own-course'));
  assert.deepEqual(courseHeadings, siteHeadings.filter((h) => h !== 'using-these-panels-in-your-own-course'));
  assert.ok(!course.includes('kvembed-host.js'), 'no embedding snippet for students');
});

test('inside a course platform the lesson reports incomplete, then completed at its last section', async () => {
  fs.writeFileSync(path.join(work, 'lms/index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>A fake LMS</title><link rel="icon" href="data:,"><script>
  window.calls = [];
  const values = { 'cmi.core.lesson_status': 'not attempted' };
  window.API = {
    LMSInitialize: (a) => { calls.push(['LMSInitialize', a]); return 'true'; },
    LMSGetValue: (k) => { calls.push(['LMSGetValue', k]); return values[k] || ''; },
    LMSSetValue: (k, v) => { calls.push(['LMSSetValue', k, v]); values[k] = v; return 'true'; },
    LMSCommit: (a) => { calls.push(['LMSCommit', a]); return 'true'; },
    LMSFinish: (a) => { calls.push(['LMSFinish', a]); return 'true'; },
    LMSGetLastError: () => '0', LMSGetErrorString: () => '', LMSGetDiagnostic: () => '',
  };
</script></head><body><iframe id="sco" src="course/index.html" style="width:1000px;height:700px"></iframe></body></html>`);
  const server = await serve({ '/': path.join(work, 'lms') });
  const page = await browser.newPage();
  const errors = watchErrors(page);
  try {
    await page.goto(`${server.url}/index.html`);
    const frame = page.frameLocator('#sco');
    await frame.locator('main h2').first().waitFor();
    await page.waitForFunction(() => calls.some((c) => c[0] === 'LMSSetValue'));
    let calls = await page.evaluate(() => window.calls);
    assert.deepEqual(calls[0], ['LMSInitialize', '']);
    assert.deepEqual(calls.find((c) => c[0] === 'LMSSetValue'), ['LMSSetValue', 'cmi.core.lesson_status', 'incomplete']);
    assert.ok(!calls.some((c) => c[2] === 'completed'), 'not completed before the reader gets to the end');
    await frame.locator('main h2').last().scrollIntoViewIfNeeded();
    await page.waitForFunction(() => calls.some((c) => c[2] === 'completed'));
    await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    await page.waitForFunction(() => calls.some((c) => c[0] === 'LMSFinish'));
    calls = await page.evaluate(() => window.calls);
    assert.equal(calls.filter((c) => c[0] === 'LMSFinish').length, 1);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});

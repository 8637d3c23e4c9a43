// The panels' section markers cite the lesson by anchor, as FILE.md#ID (wasm/panels/panels.hpp):
// FILE a chapter in content/lesson/, ID the id the site generator gives one of its headings
// (site/generator/render.cpp's slugify). Checks that every cited anchor is still there, so a
// renamed heading fails here instead of leaving the markers stale. Reads the sources only; needs
// no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const lesson = path.join(root, 'content/lesson');

// As render.cpp's slugify: letters and digits lower-cased, every other run of characters one '-'.
function slugify(text) {
  let out = '';
  for (const c of text) {
    if (/^[A-Za-z0-9]$/.test(c)) out += c.toLowerCase();
    else if (out && !out.endsWith('-')) out += '-';
  }
  return out.replace(/-+$/, '') || 'section';
}

function headingIds(file) {
  const text = fs.readFileSync(path.join(lesson, file), 'utf8');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => slugify(m[1])));
}

function wasmSources(dir = path.join(root, 'wasm')) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return wasmSources(full);
    return /\.(cpp|hpp)$/.test(entry.name) ? [full] : [];
  });
}

test('every lesson anchor the panels cite is a heading of that chapter', () => {
  const cited = [];
  for (const file of wasmSources()) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(\d\d-[a-z0-9-]+\.md)#([a-z0-9-]+)/g))
      cited.push({ where: path.relative(root, file), chapter: m[1], id: m[2] });
  }
  assert.ok(cited.length >= 10, `only ${cited.length} anchors cited in wasm/`);
  const missing = cited.filter(({ chapter, id }) => !fs.existsSync(path.join(lesson, chapter)) || !headingIds(chapter).has(id));
  assert.deepEqual(missing.map(({ where, chapter, id }) => `${where}: ${chapter}#${id}`), []);
});

test('every panel file cites the lesson by anchor, not by a heading in quotes', () => {
  const panels = fs.readdirSync(path.join(root, 'wasm/panels')).filter((f) => f.endsWith('.cpp'));
  for (const file of panels) {
    const text = fs.readFileSync(path.join(root, 'wasm/panels', file), 'utf8');
    assert.match(text, /\d\d-[a-z0-9-]+\.md#[a-z0-9-]+/, `${file} cites no lesson anchor`);
    assert.doesNotMatch(text, /^\/\/ Lesson( sections?)?: "/m, `${file} cites a lesson heading in quotes`);
  }
});

// Every bound figure of the built lesson, as the site generator wrote it into build/site-manifest.json,
// against tests/site/figures_snapshot.json: a change to the core or the lesson that moves a printed
// figure fails here until the snapshot is refreshed on purpose (node tests/node/figures_snapshot.test.mjs
// --update) and the commit says why; tests/reference_figures.json keeps each brief figure beside the
// model's. Figures are compared by chapter, binding and printed text, so prose edits around them do not
// count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifestPath = path.join(root, 'build/site-manifest.json');
const snapshotPath = path.join(root, 'tests/site/figures_snapshot.json');

function figures() {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  return manifest.figures.map((f) => ({ chapter: f.source.split(':')[0], binding: f.binding, text: f.text }));
}

if (process.argv.includes('--update')) {
  fs.writeFileSync(snapshotPath, JSON.stringify({ about: 'Every bound figure of the lesson as printed (tests/node/figures_snapshot.test.mjs).', figures: figures() }, null, 1) + '\n');
  console.log(`wrote ${snapshotPath}`);
} else {
  test('the lesson prints the same figures as the snapshot', () => {
    const now = figures();
    const before = JSON.parse(fs.readFileSync(snapshotPath, 'utf8')).figures;
    const key = (f) => `${f.chapter} ${f.binding}`;
    const was = new Map(before.map((f) => [key(f), f.text]));
    const moved = now.filter((f) => was.has(key(f)) && was.get(key(f)) !== f.text).map((f) => `${key(f)}: ${was.get(key(f))} -> ${f.text}`);
    const added = now.filter((f) => !was.has(key(f))).map(key);
    const removed = before.filter((f) => !now.some((g) => key(g) === key(f))).map(key);
    assert.deepEqual({ moved, added, removed }, { moved: [], added: [], removed: [] });
    assert.equal(now.length, before.length);
  });
}

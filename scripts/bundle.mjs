#!/usr/bin/env node
// Gives a built site's lesson page its deferred scripts as one file: the run of
// <script src="js/NAME.js" defer> tags in index.html (seventeen page scripts, each an immediately
// invoked function with its own "use strict") becomes js/lesson-bundle.js, their minified code in the
// same order. One file compresses as one: about 6 KB less gzip than seventeen, and sixteen fewer
// requests. The separate files stay for embed.html and for course authors' pages. Run after
// scripts/minify.mjs; the same input gives the same bytes.
//   node scripts/bundle.mjs build/site
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const indexFile = dir && path.join(dir, 'index.html');
if (!indexFile || !fs.existsSync(indexFile)) {
  console.error('usage: node scripts/bundle.mjs SITE_DIR (a built site, with its index.html)');
  process.exit(1);
}
const bundleName = 'js/lesson-bundle.js';
const tag = /<script src="(js\/[\w-]+\.js)" defer><\/script>\n?/g;
const page = fs.readFileSync(indexFile, 'utf8');
const names = [...page.matchAll(tag)].map((m) => m[1]);
if (names.length < 2) {
  console.error(`bundle: ${indexFile} names ${names.length} deferred scripts; expected the lesson's`);
  process.exit(1);
}
// Deferred scripts run in document order, so the tags' order is the bundle's; nothing else sits
// between them that could run in the middle (inline scripts are forbidden by the page's CSP).
const code = names.map((name) => fs.readFileSync(path.join(dir, name), 'utf8').trimEnd().replace(/;?$/, ';')).join('\n');
fs.writeFileSync(path.join(dir, bundleName), code + '\n');
let first = true;
const bundled = page.replace(tag, () => {
  if (!first) return '';
  first = false;
  return `<script src="${bundleName}" defer></script>\n`;
});
fs.writeFileSync(indexFile, bundled);
console.log(`bundle: ${names.length} scripts -> ${bundleName}, ${code.length + 1} bytes`);

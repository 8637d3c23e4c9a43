#!/usr/bin/env node
// Gives a built site's lesson page its deferred scripts as one file: the run of
// <script src="js/NAME.js" defer> tags in index.html (seventeen page scripts, each an immediately
// invoked function with its own "use strict") becomes js/lesson-bundle.js, their minified code in the
// same order. One file compresses as one: about 6 KB less gzip than seventeen, and sixteen fewer
// requests. A script another page of the site still names (embed.html's) stays as its own file;
// the others, which only the lesson loaded, are removed. Run after scripts/minify.mjs; a site
// already bundled is left as it is, and the same input gives the same bytes.
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
const bundleTag = `<script src="${bundleName}" defer></script>\n`;
const tag = /<script src="(js\/[\w-]+\.js)" defer><\/script>\n?/g;
const page = fs.readFileSync(indexFile, 'utf8');
if (page.includes(bundleTag)) {
  console.log(`bundle: ${indexFile} loads ${bundleName} already`);
  process.exit(0);
}
const names = [...page.matchAll(tag)].map((m) => m[1]);
if (names.length < 2) {
  console.error(`bundle: ${indexFile} names ${names.length} deferred scripts; expected the lesson's`);
  process.exit(1);
}
// Deferred scripts run in document order, so the tags' order is the bundle's; nothing else sits
// between them that could run in the middle (inline scripts are forbidden by the page's CSP). As
// separate files, a script that threw stopped itself alone and was reported: each part keeps that,
// its error thrown again from a task of its own.
const part = (name) => `try{${fs.readFileSync(path.join(dir, name), 'utf8').trim()}}catch(e){setTimeout(function(){throw e})}`;
const code = names.map(part).join('\n') + '\n';
fs.writeFileSync(path.join(dir, bundleName), code);
let first = true;
fs.writeFileSync(indexFile, page.replace(tag, () => (first ? ((first = false), bundleTag) : '')));

const otherPages = fs.readdirSync(dir).filter((f) => f.endsWith('.html') && f !== 'index.html')
  .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
const kept = names.filter((name) => otherPages.some((html) => html.includes(`src="${name}"`)));
for (const name of names) if (!kept.includes(name)) fs.rmSync(path.join(dir, name));
console.log(`bundle: ${names.length} scripts -> ${bundleName}, ${code.length} bytes; ${kept.length} kept for other pages`);

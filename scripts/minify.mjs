#!/usr/bin/env node
// Minifies the page scripts and stylesheets of a built site in place (terser and csso, pinned in
// package.json): the copies in SITE_DIR/js keep their code and drop the comments, whitespace and
// long local names, which were half of what a reader downloads for them; those in SITE_DIR/css
// drop comments and whitespace (a third of the stylesheet's gzip bytes), with csso's rule merging
// off so the cascade keeps the source's order. site/js and site/css keep the readable sources.
// The modules' loaders (kvcache.js, kvtools.js) were minified by their build, and the modules as
// scripts (*.wasm.js) are base64; both are left alone. The same input gives the same bytes.
//   node scripts/minify.mjs build/site
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { minify } = await import(path.join(root, 'node_modules/terser/main.js'));
const csso = await import(path.join(root, 'node_modules/csso/lib/index.js'));
const dir = process.argv[2];
if (!dir || !fs.statSync(path.join(dir, 'js'), { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/minify.mjs SITE_DIR (a built site, with its js folder)');
  process.exit(1);
}
const skipped = new Set(['kvcache.js', 'kvtools.js']);
let before = 0, after = 0, count = 0;
for (const name of fs.readdirSync(path.join(dir, 'js')).sort()) {
  if (!name.endsWith('.js') || name.endsWith('.wasm.js') || skipped.has(name)) continue;
  const file = path.join(dir, 'js', name);
  const source = fs.readFileSync(file, 'utf8');
  // Each script is a classic script sharing the page's globals: no top-level names are renamed.
  const out = await minify(source, { compress: { passes: 2 }, mangle: true, format: { comments: false } });
  fs.writeFileSync(file, out.code + '\n');
  before += source.length; after += out.code.length + 1; count++;
}
let cssBefore = 0, cssAfter = 0, cssCount = 0;
for (const name of fs.readdirSync(path.join(dir, 'css')).sort()) {
  if (!name.endsWith('.css')) continue;
  const file = path.join(dir, 'css', name);
  const source = fs.readFileSync(file, 'utf8');
  const out = csso.minify(source, { restructure: false }).css + '\n';
  fs.writeFileSync(file, out);
  cssBefore += source.length; cssAfter += out.length; cssCount++;
}
console.log(`minify: ${count} scripts, ${before} -> ${after} bytes; ${cssCount} stylesheets, ${cssBefore} -> ${cssAfter} bytes`);

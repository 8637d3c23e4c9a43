// The panels' glyphs are drawn by the browser from the page's own web fonts (wasm/platform/
// glyphs_html5.cpp); scripts/fonts tells the module which characters the panels can draw and the
// fonts' metrics. So the web fonts the site serves must hold every one of those characters, and
// scripts/fonts must refuse a font that lacks one rather than let a panel draw a fallback glyph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The fonts the wasm build reads, as wasm/CMakeLists.txt names them.
function fontArgs() {
  const cmake = fs.readFileSync(path.join(root, 'wasm/CMakeLists.txt'), 'utf8');
  const fonts = [...cmake.matchAll(/^set\(KV_FONT_(TEXT|STRONG|MONO) (\S+)\)$/gm)];
  assert.equal(fonts.length, 3, 'wasm/CMakeLists.txt names the text, strong and mono fonts');
  return fonts.flatMap(([, role, file]) => ['--font', `kv_font_${role.toLowerCase()}=${file}`]);
}

// The characters the built module draws: fonts_data.cpp's glyph ranges.
function drawnCharacters() {
  const generated = fs.readFileSync(path.join(root, 'build/wasm/wasm/fonts_data.cpp'), 'utf8');
  const pairs = /kv_font_glyph_ranges\[\] = \{([^}]*)\}/.exec(generated)[1].split(',').map((x) => Number(x.trim())).filter((x) => x > 0);
  const chars = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) for (let c = pairs[i]; c <= pairs[i + 1]; c++) chars.push(c);
  return chars;
}

// Each WOFF2 file's characters (its best cmap), read with Debian's fontTools.
function cmapsOf(files) {
  const script = 'import sys, json\nfrom fontTools.ttLib import TTFont\n' +
    'print(json.dumps({p: sorted(TTFont(p).getBestCmap()) for p in sys.argv[1:]}))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, ...files], { encoding: 'utf8' }));
}
const hex = (c) => 'U+' + c.toString(16).toUpperCase().padStart(4, '0');

test('scripts/fonts writes each font\'s metrics and the drawn characters, and refuses a font that lacks one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-fonts-'));
  try {
    const source = path.join(dir, 'drawn.cpp');
    fs.writeFileSync(source, '// draws "3.17\u00d7" and "\u2264"\n');
    const out = path.join(dir, 'fonts_data.cpp');
    execFileSync('/usr/bin/python3', [path.join(root, 'scripts/fonts'), '--out', out, '--scan', source, ...fontArgs()], { stdio: 'pipe' });
    const text = fs.readFileSync(out, 'utf8');
    assert.match(text, /const FontMetrics kv_font_text = \{2816, 2728, -680\};/);  // Inter: units per em, hhea ascent, descent
    assert.match(text, /const FontMetrics kv_font_mono = \{1000, 1020, -300\};/);  // JetBrains Mono
    assert.match(text, /kv_font_glyph_ranges\[\] = \{0x0020, 0x007E, 0x00D7, 0x00D7, 0x2264, 0x2264, 0\}/);
    fs.writeFileSync(source, '// draws a character no Latin font has: \u4e2d\n');
    const refused = spawnSync('/usr/bin/python3', [path.join(root, 'scripts/fonts'), '--out', out, '--scan', source, ...fontArgs()], { encoding: 'utf8' });
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /has no glyph for U\+4E2D/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the page\'s web fonts hold every character the panels draw', () => {
  const chars = drawnCharacters();
  assert.ok(chars.length > 95, `${chars.length} characters: ASCII and the symbols core/ formats with`);
  const fonts = ['inter-regular', 'inter-semibold', 'jetbrains-mono'].map((f) => path.join(root, 'build/site/fonts', f + '.woff2'));
  const cmaps = cmapsOf(fonts);
  for (const font of fonts) {
    const missing = chars.filter((c) => !cmaps[font].includes(c)).map(hex);
    assert.deepEqual(missing, [], `${path.basename(font)} lacks characters the panels draw`);
  }
});

// site/CMakeLists.txt subsets Inter to ASCII and the few characters the site shows. What the page
// can show: the built pages' text, the strings of its scripts (literal or \u escapes) and the core's
// formatted numbers (core/base/format.cpp: x, plus-minus, mu). Code blocks are drawn in the mono face.
const codePoints = (text) => [...text].map((c) => c.codePointAt(0)).filter((c) => c > 0x7e);
function shownCharacters() {
  const text = new Map();   // code point -> where it was first seen
  const code = new Map();
  const note = (into, where, points) => { for (const c of points) if (!into.has(c)) into.set(c, where); };
  const unescape = (html) => html.replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)));
  for (const page of ['index.html', 'embed.html']) {
    const html = unescape(fs.readFileSync(path.join(root, 'build/site', page), 'utf8'));
    note(text, page, codePoints(html));
    for (const m of html.matchAll(/<(pre|code)\b[^>]*>([\s\S]*?)<\/\1>/g)) note(code, page + ' <' + m[1] + '>', codePoints(m[2]));
  }
  const sources = [...fs.readdirSync(path.join(root, 'site/js')).map((f) => 'site/js/' + f), 'core/base/format.cpp'];
  for (const file of sources) {
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    note(text, file, codePoints(source));
    note(text, file, [...source.matchAll(/\\u([0-9a-fA-F]{4})/g)].map((m) => parseInt(m[1], 16)).filter((c) => c > 0x7e));
  }
  return { text, code };
}

test('the web fonts hold every character the built pages and their scripts show', () => {
  const { text, code } = shownCharacters();
  assert.ok(text.size >= 8, `${text.size} characters beyond ASCII: the quotes, dashes and symbols the lesson uses`);
  const faces = { 'inter-regular': text, 'inter-semibold': text, 'jetbrains-mono': code };
  const files = Object.keys(faces).map((f) => path.join(root, 'build/site/fonts', f + '.woff2'));
  const cmaps = cmapsOf(files);
  for (const [face, shown] of Object.entries(faces)) {
    const cmap = new Set(cmaps[path.join(root, 'build/site/fonts', face + '.woff2')]);
    for (let c = 0x20; c <= 0x7e; c++) assert.ok(cmap.has(c), `${face} lacks ASCII ${hex(c)}`);
    const missing = [...shown].filter(([c]) => !cmap.has(c)).map(([c, where]) => `${hex(c)} (${where})`);
    assert.deepEqual(missing, [], `${face}.woff2 lacks characters the site shows: add them to site/CMakeLists.txt's unicodes`);
  }
});

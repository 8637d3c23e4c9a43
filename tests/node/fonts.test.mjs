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
  const script = 'import sys, json\nfrom fontTools.ttLib import TTFont\n' +
    'print(json.dumps({p: sorted(TTFont(p).getBestCmap()) for p in sys.argv[1:]}))';
  const cmaps = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, ...fonts], { encoding: 'utf8' }));
  for (const font of fonts) {
    const missing = chars.filter((c) => !cmaps[font].includes(c)).map((c) => 'U+' + c.toString(16).toUpperCase().padStart(4, '0'));
    assert.deepEqual(missing, [], `${path.basename(font)} lacks characters the panels draw`);
  }
});

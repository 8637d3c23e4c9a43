// The panels' subset fonts, compiled into kvcache.wasm by scripts/fonts, are the same bytes on every
// build: fontTools would otherwise stamp the build time into each font's head table, and two builds
// of one commit (or scripts/package's archives) would differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The fonts the wasm build subsets, as wasm/CMakeLists.txt names them.
function fontArgs() {
  const cmake = fs.readFileSync(path.join(root, 'wasm/CMakeLists.txt'), 'utf8');
  const fonts = [...cmake.matchAll(/^set\(KV_FONT_(TEXT|STRONG|MONO) (\S+)\)$/gm)];
  assert.equal(fonts.length, 3, 'wasm/CMakeLists.txt names the text, strong and mono fonts');
  return fonts.flatMap(([, role, file]) => ['--font', `kv_font_${role.toLowerCase()}=${file}`]);
}

test('scripts/fonts writes the same bytes when run again a second later', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kv-fonts-'));
  try {
    const run = (out) => execFileSync('/usr/bin/python3', [path.join(root, 'scripts/fonts'), '--out', out,
      '--scan', path.join(root, 'wasm/app/app.cpp'), ...fontArgs()], { stdio: 'pipe' });
    const first = path.join(dir, 'first.cpp'), second = path.join(dir, 'second.cpp');
    run(first);
    await new Promise((resolve) => setTimeout(resolve, 1100));  // a timestamp in seconds would move
    run(second);
    assert.ok(fs.statSync(first).size > 10000, 'the fonts were written');
    assert.ok(fs.readFileSync(first).equals(fs.readFileSync(second)), 'two runs of scripts/fonts differ');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Writes wasm/ui/palette.hpp's colours as CSS custom properties, so the page's prose uses the panels'
// colours. Reads them from the built module (its palette() verb), so there is one source.
//   node wasm/palette_css.mjs build/wasm/kvcache.js build/wasm/palette.css
//   node wasm/palette_css.mjs build/wasm/kvcache.js site/css/palette.css   (refresh the checked-in copy)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [modulePath, outPath] = process.argv.slice(2);
if (!modulePath || !outPath) {
  console.error('usage: node palette_css.mjs <kvcache.js> <out.css>');
  process.exit(2);
}

export function paletteCss(palette) {
  const block = (colours) => Object.entries(colours).map(([name, hex]) => `  --kv-${name}: ${hex};`).join('\n');
  return [
    '/* The panels\' colours, one per concept (generated from wasm/ui/palette.hpp by wasm/palette_css.mjs;',
    '   do not edit by hand). Light by default, dark when the reader prefers it, as the panels do. */',
    ':root {',
    block(palette.light),
    '}',
    '@media (prefers-color-scheme: dark) {',
    '  :root {',
    block(palette.dark).replace(/^/gm, '  '),
    '  }',
    '}',
    '',
  ].join('\n');
}

const require = createRequire(import.meta.url);
// Node cannot fetch() a file path: the module gets its .wasm (beside kvcache.js) as bytes.
const kv = await require(path.resolve(modulePath))({ wasmBinary: fs.readFileSync(path.resolve(modulePath).replace(/\.js$/, '.wasm')) });
fs.writeFileSync(outPath, paletteCss(JSON.parse(kv.palette())));

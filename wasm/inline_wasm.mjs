// Writes the module's .wasm as a script for pages opened from disk (file://), where fetch() cannot
// read it: `var KV_WASM_BASE64 = "...";`, which site/js/kvpanels.js decodes and hands to the module
// as wasmBinary. Over http(s) the page streams kvcache.wasm instead and never loads this file.
//   node wasm/inline_wasm.mjs build/wasm/kvcache.wasm build/wasm/kvcache.wasm.js
import fs from 'node:fs';

const [wasmPath, outPath] = process.argv.slice(2);
if (!wasmPath || !outPath) {
  console.error('usage: node inline_wasm.mjs <kvcache.wasm> <kvcache.wasm.js>');
  process.exit(2);
}
const base64 = fs.readFileSync(wasmPath).toString('base64');
fs.writeFileSync(outPath, `// kvcache.wasm for pages opened from disk (wasm/inline_wasm.mjs); generated, do not edit.\nvar KV_WASM_BASE64 = "${base64}";\n`);

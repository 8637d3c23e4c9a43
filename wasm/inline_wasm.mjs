// Writes a module's .wasm as a script for pages opened from disk (file://), where fetch() cannot
// read it: `var KV_WASM_BASE64 = "...";` (or the variable named), which site/js/kvpanels.js decodes
// and hands to the module as wasmBinary. Over http(s) the page streams the .wasm instead and never
// loads this file.
//   node wasm/inline_wasm.mjs build/wasm/kvcache.wasm build/wasm/kvcache.wasm.js [KV_WASM_BASE64]
import fs from 'node:fs';
import path from 'node:path';

const [wasmPath, outPath, name = 'KV_WASM_BASE64'] = process.argv.slice(2);
if (!wasmPath || !outPath || !/^[A-Z_][A-Z0-9_]*$/.test(name)) {
  console.error('usage: node inline_wasm.mjs <module.wasm> <module.wasm.js> [VARIABLE_NAME]');
  process.exit(2);
}
const base64 = fs.readFileSync(wasmPath).toString('base64');
fs.writeFileSync(outPath, `// ${path.basename(wasmPath)} for pages opened from disk (wasm/inline_wasm.mjs); generated, do not edit.\nvar ${name} = "${base64}";\n`);

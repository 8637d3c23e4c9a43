// Two budgets the lesson keeps (issue 14): at most 120 bound figures, so the numbers carry the
// argument instead of burying it, and a page that weighs, gzipped as a host serves it, no more than
// 30 KiB above what it weighed before the pictures, exercises, glossary and accessible controls came.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = path.join(root, 'build/site');

// Measured by this file's pageFiles() on the build of commit daf78d6 (the lesson before issue 14's
// work): index.html, its stylesheets and scripts, kvcache.wasm and the fonts the stylesheets name.
const BEFORE_ISSUE_14_GZIP_BYTES = 558_532;
const ALLOWED_GROWTH_BYTES = 30 * 1024;
const MAX_FIGURES = 120;
// Issue 23 aims at 350 KiB (358,400 bytes) for the whole transfer; this bound moves down with each
// cut, as the module's does: 424,300 when the Inter faces were subset to the characters the site
// shows instead of all of Latin-1 (441,439 -> 424,196), 420,900 when the module's catalog copy
// dropped the keys no reader names (424,196 -> 420,764), 413,300 when the build began minifying the
// page scripts (scripts/minify.mjs: 420,764 -> 413,162). A feature that adds bytes says what it
// bought: 413,600 for js/kvfonts.js (js/kvhead.js since 009aa94), which fetches the faces as the
// page starts and so took away the lesson's layout shift on a phone (CLS 0.119 in 2 of 5 loads, 0
// in 6 of 6; 413,162 -> 413,495);
// then 401,800 when the panels' grids stopped using ImGui's tables (ui/grid.hpp: 413,495 -> 401,713),
// 401,500 when the WebGL backend stopped reading back GL state (401,713 -> 401,389); then 401,600
// for sizing each panel's canvas to its content before its first frame (one canvas reallocation
// per panel instead of two; platform_html5.cpp's size_to_content: 401,389 -> 401,551), then 401,500
// after the review that followed (the grid's columns in one vector, SurfaceSize's defaulted ==: 401,396),
// 381,500 when the fonts kept only the OpenType features the page's text is shaped with (kerning,
// Inter's contextual alternates, tabular figures; the lesson pixel-identical: 401,396 -> 381,463),
// 378,300 when the build began minifying the stylesheets (scripts/minify.mjs: 381,463 -> 378,218),
// 366,300 when the italic face left for the browser's slant of the regular one (lesson.css says
// why: 378,218 -> 366,209), 360,300 when the lesson's seventeen deferred scripts became one file
// (scripts/bundle.mjs: 366,209 -> 360,226), 359,100 when the page's price list kept only the keys its
// price note reads (the sources stay in content/data/gpu_prices.json: 360,226 -> 359,053), 353,300
// when Inter's contextual alternates left (site/CMakeLists.txt says what they drew: 359,053 -> 353,204).
// Issue 23's 358,400 is met from here. Then 355,200 for the engine field (VLLM_USE_V1, V0's fallback
// on GPUs before Ampere, the catalog's compute capabilities, V0's forward peak by the code: 353,293 -> 355,145),
// 356,600 for Jamba (Mamba1 layers: its config reader and writer, its catalog entry: 355,145 -> 356,524),
// 356,700 for latent experts (Nemotron 3 Super; a paragraph on what stays whole per card: 356,524 -> 356,648),
// 357,100 after the review that followed (V1's other fallback, Jamba refused before 0.10.1: 357,052),
// 357,300 when the lint's function-length limit split the GPU and config readers (357,250),
// 357,700 for the worker that starts WebGL off the main thread (js/kvwarm.js, 247 bytes) and the
// module fetched after the text's first paint; the count now takes the loader from data-module, as
// the page's preload of it went (357,250 -> 357,674), 357,900 for the glyph atlas built in a task of
// its own before the first mount (357,674 -> 357,817), 358,200 for the catalog's parts asked alone
// (the in-text knobs ask for the fields, the twins for the defaults: 357,817 -> 358,132), 358,350
// for the module's part below (358,191 -> 358,324), 358,400 (the issue's 350 KiB, no headroom left)
// for the room kept above each panel's frame for its key-results strip and in the prose for the
// "set this up" buttons, so neither the panel nor the text moves when they come (358,324 -> 358,367);
// it stays at the issue's cap when the module's evaluation lost its repeated work (358,367 -> 357,780)
// and the serving panel stopped resizing its canvas as its run lands and plays (-> 358,378); then
// 358,000 when the 39 named scenarios were written as their differences from the page's defaults
// (358,378 -> 357,883), with the trust chapter's account of its unified-memory row (-> 357,995), then
// 358,200 when that account named what its furthest rows share, a first start that compiled the model's
// graphs inside the profile run, citing vLLM's issues on it (357,995 -> 358,154); then 358,300 for a
// fresh reader's corrections (prefill in steps, the concurrency line's ceiling, latent attention's
// cache, the release whose log names the next one, flags kept as code, the glossary made to agree,
// with the image profile and the offload tier said more briefly: 358,154 -> 358,252); then 356,600
// when each bound figure stopped carrying what the page's scripts derive or never read: the scenarios
// it names (lesson-sections.js reads them from its refs), its field, and its file and line, which
// the build's manifest keeps for the tests (358,252 -> 356,515), 356,700 for saying what LoRA, a mixture of
// experts, tensor parallelism and DCGM are where the text first names them (-> 356,665); 356,900 for a
// fresh tester's findings: a refused address field said above a panel that goes on drawing, a panel
// not reached yet that no longer says JavaScript is missing, embedded exercises' whole scenarios and
// their links, a prediction's thousands (-> 356,828), then 357,000 for a second tester's: the quoted
// figures labelled in words, factors from a hundred on grouped by the core, a log's assumed GPU said
// in its summary (-> 357,013), 357,200 with the module's wrap of words wider than a line (-> 357,104),
// 357,300 for the lesson keeping its panels' WebGL contexts within a pixel budget (kvpanels.js
// keepsAll and giveBack: no give-and-take long tasks on a desktop) and a header said shorter (-> 357,238),
// 357,400 for the trust chapter's runs left uncompared, whose printed flags do not start (-> 357,341),
// 357,500 for a step that gathers its embedding's rows, computes logits for its sampled rows only
// and skips its unrouted experts' bytes as loaded (memory/weight_bytes.cpp; -> 357,410), 357,600 for
// Mixtral's expert parallelism before the fused MoE kernel (engine_rules.hpp, fused_moe; -> 357,519),
// 357,800 for V1's batch defaults release by release before 0.9.0 (engine_rules.hpp,
// LargeBatchDevices; -> 357,679), 358,100 for V1's piecewise graphs and the trust chapter's two
// published timings (time/step_time.cpp, eager_attention_s; -> 358,060), 358,200 for an FP8 cache
// read at its measured share of a 16-bit cache's rate, and the two chapters that say so (-> 358,140),
// 358,300 for the MoE routing floor of Mixtral's layers before the fused kernel (time/step_time.cpp,
// layer_floors_s; -> 358,212; issue 23's 350 KiB is 358,400), 358,400 for an FP8 checkpoint's
// matmuls as vLLM runs them and the trust chapter's new worst rows (-> 358,507), less the page's
// data-accuracy cut to the held-out medians the error bands read (-> 358,343); then 358,100 when the
// JSON in the page's attributes went into single quotes (page/html.hpp's json_attribute: 2,246
// &quot; fewer; 358,397 -> 358,061), less the canvas opening in a frame of its own (-> 357,973); 358,200
// for the glyph atlas drawn a face a task (ui/fonts.cpp's prepare_atlas: -> 358,133), 358,300 for the
// canvas opening in a timeout rather than an animation frame, which a browser does not run in a
// cross-origin frame off screen (app.cpp's kv_next_task: -> 358,242).
const PAGE_MAX_GZIP_BYTES = 358_300;

// What a reader's browser fetches for index.html over http (the base64 fallback for file:// is not
// fetched there): the stylesheets and scripts it names, the module's .wasm, and the fonts.
function pageFiles() {
  const html = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
  const files = new Set(['index.html', 'js/kvcache.wasm']);
  for (const m of html.matchAll(/<(?:link[^>]*rel="(?:stylesheet|preload)"[^>]*href|script[^>]*src)="([^"]+)"/g)) files.add(m[1]);
  // The module's loader (data-module, fetched as the first panel or knob nears) and the worker beside it
  // that starts WebGL off the main thread (kvpanels.js).
  for (const m of html.matchAll(/data-module="([^"]+)"/g)) {
    files.add(m[1]);
    files.add(path.posix.join(path.posix.dirname(m[1]), 'kvwarm.js'));
  }
  for (const file of [...files].filter((f) => f.endsWith('.css'))) {
    const css = fs.readFileSync(path.join(site, file), 'utf8');
    for (const m of css.matchAll(/url\(["']?([^"')]+)["']?\)/g)) if (!m[1].startsWith('data:')) files.add(path.posix.join(path.posix.dirname(file), m[1]));
  }
  return [...files];
}

const gzipBytes = (file) => zlib.gzipSync(fs.readFileSync(path.join(site, file)), { level: 9 }).length;

test('the lesson binds at most 120 figures, and says how many it binds', () => {
  const html = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
  const stated = Number(/data-figure-count="(\d+)"/.exec(html)[1]);
  const anchors = html.match(/class="kv-fig[ "]/g).length;  // an anchor, or a span inside a code block
  assert.equal(anchors, stated);
  assert.ok(stated <= MAX_FIGURES, `${stated} bound figures; the lesson allows ${MAX_FIGURES}`);
});

test('the page weighs at most 30 KiB (gzip) more than before issue 14, and no more than its last cut left', () => {
  const files = pageFiles();
  for (const f of files) assert.ok(fs.existsSync(path.join(site, f)), `index.html names ${f}, which the build did not write`);
  const total = files.reduce((sum, f) => sum + gzipBytes(f), 0);
  const table = files.map((f) => `${String(gzipBytes(f)).padStart(8)}  ${f}`).join('\n');
  assert.ok(total <= BEFORE_ISSUE_14_GZIP_BYTES + ALLOWED_GROWTH_BYTES,
    `${total} bytes gzip, ${total - BEFORE_ISSUE_14_GZIP_BYTES} above ${BEFORE_ISSUE_14_GZIP_BYTES}:\n${table}`);
  assert.ok(total <= PAGE_MAX_GZIP_BYTES, `${total} bytes gzip; at most ${PAGE_MAX_GZIP_BYTES}:\n${table}`);
  console.log(`page weight ${total} bytes gzip (${((total - BEFORE_ISSUE_14_GZIP_BYTES) / 1024).toFixed(1)} KiB over the budget's base)\n${table}`);
});

// Issue 23: the module is built without C++ exceptions, whose JavaScript trampolines (invoke_*
// imports) and landing pads were 46 KB of its gzip bytes. The budget moves down when a cut lands, and
// a feature that grows the module says here what it bought: 336,000 -> 325,000 when ImGui's unused
// ProggyClean font left (335,809 -> 324,597), then 326,000 for Mamba2 hybrids (Granite 4.0-H) and
// the RTX 3060 (324,597 -> 325,807), then 328,000 for Nemotron-H (its pattern reader and writer,
// the state dtype by release, a padding warning for each kind of layer: 325,710 -> 327,579), then
// 328,100 for the mamba_ssm_cache_dtype field (its row, check and log reading: 327,579 -> 328,045),
// then 328,400 for Nemotron 3 Nano in the catalog (its config.json: 328,045 -> 328,398), then 296,500
// when the log explainer and the planner moved to the tools' module (328,398 -> 296,425), then 267,000
// when the browser began drawing the panels' glyphs from the page's web fonts (no font files and no
// stb_truetype in the module: 296,425 -> 266,946), then 265,400 when the sweeps' JSON verbs, which
// only the Node test and the benchmark ask for, moved to the tools' module (266,941 -> 265,362),
// then 262,000 when the embedded catalog kept only the keys its readers name (265,354 -> 261,922),
// then 250,200 when the panels' six grids were drawn by ui/grid.hpp instead of ImGui's tables, whose
// layout, borders, headers and saved settings the linker now leaves out (261,922 -> 250,140), then
// 249,900 when the WebGL backend stopped reading back and restoring GL state (250,140 -> 249,839),
// then 250,100 for sizing each panel's canvas before its first frame (249,839 -> 250,001), then
// 249,900 after the review that followed (250,001 -> 249,846), then 251,700 for the engine field
// (its row and refusals, the compute capability read from the catalog: 249,846 -> 251,686), then
// 253,000 for Jamba (251,686 -> 252,959), then 253,400 after the review that followed (253,357),
// 253,600 when the lint's function-length limit split the GPU and config readers (253,555), then
// 253,700 for prepareFonts (the glyph atlas in a task before the first mount) and drawStats' atlas
// count (253,555 -> 253,667), then 254,000 for catalogPart, one key of the catalog alone, which
// the page asks for as it starts instead of every model's and GPU's entry (253,667 -> 253,958),
// then 254,100 for a canvas measured and sized before its WebGL context (one drawing buffer a panel
// instead of a second at its measured height: 253,958 -> 254,048) and the step-time search that
// finds the prefill slice riding free in about five step times instead of twelve (-> 254,091);
// an evaluation that reads its release's rules once and copies the model once took it to 253,504,
// and the serving panel's canvas opened once its first run lands, with room kept for the stats lines
// still to come (no drawing buffer made again as the run lands and plays), back to 254,047; 254,200
// for a word wider than its line cut where the line ends (a URL in the engine log on a phone) and
// the plan's and the log's fixes of this session's testers (-> 254,150), 254,300 for a step that
// gathers its embedding's rows, computes logits for its sampled rows only and skips its unrouted
// experts' bytes as loaded (-> 254,210), 254,400 for Mixtral's expert parallelism before the fused
// MoE kernel, whole experts over every token (-> 254,313), 254,600 for V1's batch defaults release
// by release before 0.9.0 (-> 254,473), 254,700 for V1's piecewise graphs (-> 254,638), 254,800
// for an FP8 cache's measured read share (-> 254,729), 254,900 for an FP8 checkpoint's matmuls as
// vLLM runs them and the weight_block_size its config.json gives (-> 254,850), 255,000 for the
// glyph atlas drawn a face a call, and the canvas opening in an animation frame (-> 254,932), 255,100
// for that opening in a timeout instead, which a cross-origin frame off screen runs (-> 255,021).
const MODULE_MAX_GZIP_BYTES = 255_100;   // issue 23 aimed at 260,000
// The tools' module (kvtools.wasm: the core, the log explainer and the planner, no panels) is fetched
// only when a reader first uses one of the two, so it is not in the page's weight above; it has a
// budget of its own: 158,564 bytes when it was split off, 160,807 with the sweeps, 156,114 once the
// embedded catalog kept only the keys its readers name, 158,200 with the engine field and the log's
// V0 lines (156,114 -> 158,104), 159,400 with Jamba (158,104 -> 159,365), 159,600 after its review (159,595),
// 159,800 after the lint's split of the readers (159,781), 159,400 after the evaluation's repeated
// work went (159,377), 160,000 for the explainer's reading of torch.compile's lines and its note on a
// start-up that compiled its graphs afresh, whose pool a warm restart would beat (159,383 -> 159,928),
// 160,200 for a tester's findings: a rate plan's closest configuration the one that completes the
// most, a log explained on an assumed GPU saying so, factors grouped (-> 160,135); 160,500 for the
// card a log's CUDA-graph advice implies where it prints no total (-> 160,404); 160,600 for a step's
// embedding gathered and logits for its sampled rows, and a rate plan's search shaped by the
// requests the rate keeps in flight instead of the users box (-> 160,517); 160,700 for Mixtral's
// expert parallelism before the fused MoE kernel (-> 160,605); 160,900 for V1's batch defaults
// release by release before 0.9.0 (-> 160,833); 161,000 for V1's piecewise graphs and an FP8
// cache's measured read share (-> 160,991), 161,100 for the MoE routing floor of Mixtral's layers
// before the fused kernel (-> 161,007), 161,200 for an FP8 checkpoint's matmuls as vLLM runs them
// and the weight_block_size its config.json reads and writes (-> 161,154).
const TOOLS_MAX_GZIP_BYTES = 161_200;

function moduleGzipBytes(file) {
  const bytes = fs.readFileSync(path.join(site, file));
  const trampolines = WebAssembly.Module.imports(new WebAssembly.Module(bytes)).filter((i) => i.name.startsWith('invoke_'));
  assert.deepEqual(trampolines.map((i) => i.name), [], file);
  return zlib.gzipSync(bytes, { level: 9 }).length;
}

test(`kvcache.wasm carries no exception trampolines and weighs at most ${MODULE_MAX_GZIP_BYTES.toLocaleString('en-US')} bytes gzip`, () => {
  const gzip = moduleGzipBytes('js/kvcache.wasm');
  assert.ok(gzip <= MODULE_MAX_GZIP_BYTES, `kvcache.wasm is ${gzip} bytes gzip; at most ${MODULE_MAX_GZIP_BYTES}`);
});

test(`kvtools.wasm carries no exception trampolines and weighs at most ${TOOLS_MAX_GZIP_BYTES.toLocaleString('en-US')} bytes gzip`, () => {
  const gzip = moduleGzipBytes('js/kvtools.wasm');
  assert.ok(gzip <= TOOLS_MAX_GZIP_BYTES, `kvtools.wasm is ${gzip} bytes gzip; at most ${TOOLS_MAX_GZIP_BYTES}`);
});

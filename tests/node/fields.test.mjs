// The page scripts know each input field from the core's field tables and nothing else: the site
// bakes every row ([name, type, nullable], in table order) into index.html and embed.html, and
// KvState (site/js/kvstate.js) reads a field's kind from there. Checked against the module's own
// catalog, so a row added in core/scenario/scenario_fields.cpp reaches the pages with no list to
// edit in JavaScript.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const createKvModule = require(path.join(root, 'build/wasm/kvcache.js'));
const kv = await createKvModule({ wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/kvcache.wasm')) });
const catalog = JSON.parse(kv.catalog());

// The catalog's rows in table order, as [name, type, nullable].
const rows = ['fields', 'workload_fields'].flatMap((table) =>
  Object.entries(catalog[table]).sort((a, b) => a[1].order - b[1].order).map(([name, row]) => [name, row.type, row.nullable]));

const unescape = (s) => s.replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
function bakedFields(page) {
  const html = fs.readFileSync(path.join(root, 'build/site', page), 'utf8');
  return JSON.parse(unescape(/data-fields='([^']*)'/.exec(html)[1]));   // JSON in single quotes (page/html.hpp)
}

// KvState as a page gets it, with the given data-fields.
function kvState(fields) {
  const holder = { getAttribute: () => JSON.stringify(fields) };
  const context = { document: { querySelector: (sel) => (sel === '[data-fields]' ? holder : null) } };
  vm.createContext(context);
  vm.runInContext(fs.readFileSync(path.join(root, 'site/js/kvstate.js'), 'utf8') + '\nthis.KvState = KvState;', context);
  return context.KvState;
}

test('both pages carry every field of the core\'s tables, in their order', () => {
  assert.ok(rows.length >= 25, `${rows.length} fields in the catalog`);
  for (const page of ['index.html', 'embed.html']) assert.deepEqual(bakedFields(page), rows, page);
});

test('KvState reads each field as its row says', () => {
  const state = kvState(bakedFields('index.html'));
  assert.deepEqual(JSON.parse(JSON.stringify(state.fieldNames())), rows.map((r) => r[0]));
  for (const [name, type, nullable] of rows) {
    if (type === 'integer' || type === 'number') assert.equal(state.coerce(name, '12'), 12, name);
    else if (type !== 'object') assert.equal(state.coerce(name, '12'), '12', name);  // text goes to the core as typed
    if (type === 'boolean') assert.equal(state.coerce(name, 'false'), false, name);
    if (type === 'object') assert.deepEqual(JSON.parse(JSON.stringify(state.coerce(name, '{"a": 1}'))), { a: 1 }, name);
    // An object's null goes to the core, which says whether that field takes one.
    assert.equal(state.coerce(name, 'null') === null, nullable || type === 'object', name);
  }
});

test('a field added to a table reaches KvState with no JavaScript list to edit', () => {
  const state = kvState([...rows, ['new_knob_tokens', 'integer', true]]);
  assert.equal(state.coerce('new_knob_tokens', '4096'), 4096);
  assert.equal(state.coerce('new_knob_tokens', 'default'), null);
});

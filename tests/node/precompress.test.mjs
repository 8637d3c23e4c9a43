// The built site carries each text asset's gzip and brotli forms (scripts/precompress), and
// scripts/serve.mjs sends the form the browser accepts, as a host with nginx's gzip_static or
// Caddy's precompressed does (issue 23).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serveLikeRun } from '../browser/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = path.join(root, 'build/site');

function siteFiles(dir = site) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? siteFiles(path.join(dir, e.name)) : [path.relative(site, path.join(dir, e.name))]);
}
const compressible = (f) => /\.(html|js|css|wasm|json|svg)$/.test(f) && !f.endsWith('.wasm.js');

test('every text asset of the site has a .gz and a .br beside it that unpack to its bytes, and no other does', () => {
  const files = siteFiles();
  const assets = files.filter((f) => !/\.(gz|br)$/.test(f));
  const wanted = assets.filter(compressible);
  assert.ok(['index.html', 'js/kvcache.wasm', 'js/kvtools.wasm'].every((f) => wanted.includes(f)), 'the page and both modules are among them');
  for (const f of wanted) {
    const bytes = fs.readFileSync(path.join(site, f));
    assert.ok(zlib.gunzipSync(fs.readFileSync(path.join(site, f + '.gz'))).equals(bytes), `${f}.gz`);
    assert.ok(zlib.brotliDecompressSync(fs.readFileSync(path.join(site, f + '.br'))).equals(bytes), `${f}.br`);
  }
  const forms = files.filter((f) => /\.(gz|br)$/.test(f)).sort();
  assert.deepEqual(forms, wanted.flatMap((f) => [f + '.br', f + '.gz']).sort(), 'a .gz or .br without its file, or for a file a host never sends');
  const wasm = (ext) => fs.statSync(path.join(site, 'js/kvcache.wasm' + ext)).size;
  console.log(`kvcache.wasm: ${wasm('')} bytes, ${wasm('.gz')} gzip -9, ${wasm('.br')} brotli -q 11`);
});

let server;
before(async () => { server = await serveLikeRun(site); });
after(() => server?.close());

// One GET: its status, headers and body as sent (not decoded).
const get = (urlPath, acceptEncoding) => new Promise((resolve, reject) => {
  http.get(server.url + urlPath, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
  }).on('error', reject);
});

test('scripts/serve.mjs sends brotli, then gzip, then the file itself, as the browser accepts them', async () => {
  const wasm = fs.readFileSync(path.join(site, 'js/kvcache.wasm'));
  const asChrome = await get('/js/kvcache.wasm', 'gzip, deflate, br, zstd');
  assert.equal(asChrome.headers['content-encoding'], 'br');
  assert.equal(asChrome.headers['content-type'], 'application/wasm');
  assert.equal(asChrome.headers.vary, 'Accept-Encoding');
  assert.ok(zlib.brotliDecompressSync(asChrome.body).equals(wasm));
  const noBrotli = await get('/js/kvcache.wasm', 'br;q=0, gzip;q=0.8');
  assert.equal(noBrotli.headers['content-encoding'], 'gzip');
  assert.ok(zlib.gunzipSync(noBrotli.body).equals(wasm));
  const plain = await get('/js/kvcache.wasm');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.ok(plain.body.equals(wasm));
  const font = await get('/fonts/inter-regular.woff2', 'br, gzip');
  assert.equal(font.headers['content-encoding'], undefined, 'a woff2 font is sent as it is');
  const page = await get('/', 'br');
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.ok(zlib.brotliDecompressSync(page.body).equals(fs.readFileSync(path.join(site, 'index.html'))));
});

test('scripts/serve.mjs serves nothing outside its folder, not even a sibling that shares its name', async () => {
  assert.ok(fs.existsSync(path.join(root, 'build/site-manifest.json')), 'the sibling this test asks for');
  assert.equal((await get('/..%2Fsite-manifest.json')).status, 403);
  assert.equal((await get('/..%2F..%2FREADME.md')).status, 403);
});

// Serves a directory on 127.0.0.1 (scripts/run): port 8000 if free, else any free port. Static files
// only, with the content types the site needs, each sent as the FILE.br or FILE.gz that
// scripts/precompress wrote beside it when the browser accepts that encoding, as nginx's
// brotli_static and gzip_static do; prints the address and runs until interrupted.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.argv[2] || 'build/site');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.wasm': 'application/wasm',  // streaming compilation needs this type
};

// Whether an Accept-Encoding header lists `name` with a weight above zero ("br;q=0" refuses it).
function accepts(header, name) {
  return String(header || '').split(',').some((part) => {
    const [token, ...params] = part.split(';').map((p) => p.trim());
    const weight = params.find((p) => p.startsWith('q='));
    return token === name && (!weight || Number(weight.slice(2)) > 0);
  });
}

const server = http.createServer((req, res) => {
  let urlPath;
  try { urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname); } catch { res.writeHead(400).end(); return; }
  let file = path.join(dir, urlPath);
  if (file !== dir && !file.startsWith(dir + path.sep)) { res.writeHead(403).end(); return; }  // not a sibling folder either
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!fs.existsSync(file)) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n'); return; }
  const encoding = [['br', '.br'], ['gzip', '.gz']].find(([name, ext]) =>
    accepts(req.headers['accept-encoding'], name) && fs.existsSync(file + ext));
  res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache',
    'Vary': 'Accept-Encoding', ...(encoding ? { 'Content-Encoding': encoding[0] } : {}) });
  fs.createReadStream(encoding ? file + encoding[1] : file).pipe(res);
});

server.on('listening', () => {
  console.log(`Serving ${path.relative(process.cwd(), dir) || dir} at http://127.0.0.1:${server.address().port}/ (Ctrl+C to stop)`);
});
function listen(port) {
  server.once('error', (err) => {
    if (err.code === 'EADDRINUSE' && port !== 0) listen(0);
    else { console.error(`run: ${err.message}`); process.exit(1); }
  });
  server.listen(port, '127.0.0.1');
}
listen(8000);
process.on('SIGINT', () => { server.close(); process.exit(0); });
process.on('SIGTERM', () => { server.close(); process.exit(0); });

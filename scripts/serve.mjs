// Serves a directory on 127.0.0.1 (scripts/run): port 8000 if free, else any free port. Static files
// only, with the content types the site needs; prints the address and runs until interrupted.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.argv[2] || 'build/site');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.wasm': 'application/wasm',  // streaming compilation needs this type
};

const server = http.createServer((req, res) => {
  let urlPath;
  try { urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname); } catch { res.writeHead(400).end(); return; }
  let file = path.join(dir, urlPath);
  if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!fs.existsSync(file)) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n'); return; }
  res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
  fs.createReadStream(file).pipe(res);
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

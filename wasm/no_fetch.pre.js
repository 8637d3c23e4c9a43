// Emscripten 3.1.6 tries fetch() on the inlined wasm's data: URI before decoding it itself; the
// page's CSP (default-src 'self', no connect-src) refuses that fetch and logs an error. A data:
// URI never needs fetch(), and the module fetches nothing else (-sFILESYSTEM=0), so fetch is
// shadowed inside the module's scope and it decodes the base64 directly.
var fetch;

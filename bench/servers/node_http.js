// The Node.js HTTP server of bench/compare-http.sh: the `http` module, one process (one thread
// of JavaScript). Every request gets the same body: "Hello, world!" (13 bytes) or --size N bytes,
// with Content-Type and Content-Length (Node adds Date and keep-alive itself). Prints
// "listening on HOST:PORT" once bound, runs until killed.
// Usage: node node_http.js --host 127.0.0.1 --port P [--size N]
'use strict';
const http = require('http');

let host = '127.0.0.1';
let port = 0;
let size = -1;
const args = process.argv.slice(2);
for (let i = 0; i + 1 < args.length; i += 2) {
  if (args[i] === '--host') host = args[i + 1];
  else if (args[i] === '--port') port = Number(args[i + 1]);
  else if (args[i] === '--size') size = Number(args[i + 1]);
  else throw new Error(`unknown option ${args[i]}`);
}
const body = size < 0 ? Buffer.from('Hello, world!') : Buffer.alloc(size, 'x');
const headers = { 'Content-Type': 'text/plain', 'Content-Length': String(body.length) };

const server = http.createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(port, host, () => {
  const a = server.address();
  console.log(`listening on ${a.address}:${a.port}`);
});

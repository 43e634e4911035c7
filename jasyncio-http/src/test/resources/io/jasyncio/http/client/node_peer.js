// The Node.js `http` server the client's interop tests talk to: keep-alive (Node's default),
// one path per behaviour. Prints "listening on 127.0.0.1:PORT" once bound; runs until killed.
'use strict';
const http = require('http');

let connections = 0;
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/hello') {
    res.setHeader('Content-Type', 'text/plain');
    res.end('Hello, world!');
  } else if (url.pathname === '/conn') {
    res.end(String(req.socket.connectionId));
  } else if (url.pathname === '/chunked') { // several writes without a length: Node sends them chunked
    res.write('one,');
    res.write('two,');
    setImmediate(() => res.end('three'));
  } else if (url.pathname === '/upload') { // counts the request body's bytes
    let total = 0;
    req.on('data', (chunk) => { total += chunk.length; });
    req.on('end', () => res.end(String(total)));
  } else if (url.pathname === '/connections') { // how many connections this server accepted
    res.end(String(connections));
  } else {
    res.statusCode = 404;
    res.end('not found');
  }
});
server.on('connection', (socket) => {
  connections += 1;
  socket.connectionId = connections;
});
server.keepAliveTimeout = 60000;
// The test holds this process's stdin: when it closes (the test ended, however), so does the peer.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on 127.0.0.1:${server.address().port}`);
});

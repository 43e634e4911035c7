// The Node.js echo server of the comparison: the net module, one process, socket.pipe(socket)
// (which honours back-pressure). Prints "listening on HOST:PORT" once bound, runs until killed.
// Usage: node node_echo.js --host 127.0.0.1 --port P
'use strict';
const net = require('net');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const host = option('--host', '127.0.0.1');
const port = Number(option('--port', '0'));

const server = net.createServer({ noDelay: true }, (socket) => {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  socket.pipe(socket);
});
server.listen({ host, port, backlog: 1024 }, () => {
  const a = server.address();
  console.log(`listening on ${a.address}:${a.port}`);
});

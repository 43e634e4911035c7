// Node's ws for bench/ws-compare.sh: /ws echoes every message as it came, /broadcast sends each
// message to every other connection; no compression (ws's server default). Prints
// "listening on 127.0.0.1:PORT". ws is installed by the script (npm, into jasyncio-http/src/test/node).
'use strict';
const path = require('path');
const { WebSocketServer, WebSocket } = require(path.join(process.argv[2], 'node_modules', 'ws'));

const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(process.argv[3] || 0) });
wss.on('connection', (ws, req) => {
  if (req.url === '/broadcast') {
    ws.on('message', (data, isBinary) => {
      for (const c of wss.clients) {
        if (c !== ws && c.readyState === WebSocket.OPEN) c.send(data, { binary: isBinary });
      }
    });
  } else {
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  }
});
wss.on('listening', () => console.log('listening on 127.0.0.1:' + wss.address().port));

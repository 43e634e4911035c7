// Node's ws as the WebSocket interop peer (installed here by npm install; see package.json).
// server: echoes every message as it came (permessage-deflate on), closes at once with CODE on
//         /close/CODE; prints "listening on 127.0.0.1:PORT".
// client URL: runs the exchange the Java test checks and prints one line per step.
'use strict';
const { WebSocket, WebSocketServer } = require('ws');

const MAX = 2 * 1024 * 1024;

function serve() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: true, maxPayload: MAX });
  wss.on('connection', (ws, req) => {
    if (req.url.startsWith('/close/')) {
      const code = Number(req.url.slice(7));
      ws.close(code, 'closing ' + code);
      return;
    }
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
  wss.on('listening', () => console.log('listening on 127.0.0.1:' + wss.address().port));
}

function next(ws) {
  return new Promise((resolve) => ws.once('message', (data, isBinary) => resolve({ data, isBinary })));
}

async function client(url) {
  const ws = new WebSocket(url + '/echo', { perMessageDeflate: true, maxPayload: MAX });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  console.log('extensions', ws.extensions.split(';')[0]);
  ws.send('Hello, κόσμε');
  let m = await next(ws);
  console.log('text', !m.isBinary && m.data.toString() === 'Hello, κόσμε');
  const bytes = Buffer.from([...Array(256).keys()]);
  ws.send(bytes);
  m = await next(ws);
  console.log('binary', m.isBinary && m.data.equals(bytes));
  const big = Buffer.alloc(1 << 20, 0).map((_, i) => i * 7 % 251);
  ws.send(big);
  m = await next(ws);
  console.log('mebibyte', m.isBinary && m.data.equals(big));
  ws.send('frag', { fin: false });
  ws.send('κό', { fin: false });
  ws.send('σμε', { fin: true });
  m = await next(ws);
  console.log('fragmented', !m.isBinary && m.data.toString() === 'fragκόσμε');
  ws.ping('are you there');
  await new Promise((resolve) => ws.once('pong', resolve));
  console.log('pong', true);
  ws.close(4000, 'done');
  const [code, reason] = await new Promise((resolve) => ws.once('close', (c, r) => resolve([c, r.toString()])));
  console.log('closed', code, reason);
  const closing = new WebSocket(url + '/close/4001');
  const [code2, reason2] = await new Promise((resolve) => closing.once('close', (c, r) => resolve([c, r.toString()])));
  console.log('server closed', code2, reason2);
}

if (process.argv[2] === 'server') {
  serve();
} else {
  client(process.argv[3]).catch((e) => { console.log('error', e.message); process.exit(1); });
}

"""Python's websockets (Debian's python3-websockets, on asyncio) as the WebSocket interop peer.

server: echoes every message as it came (permessage-deflate accepted), closes at once with CODE on
        /close/CODE; prints "listening on 127.0.0.1:PORT".
client URL: runs the exchange the Java test checks and prints one line per step.
"""
import asyncio
import sys

import websockets

MAX = 2 ** 21


async def handler(ws, path=None):
    path = path if path is not None else ws.path
    if path.startswith("/close/"):
        await ws.close(int(path[7:]), "closing " + path[7:])
        return
    async for message in ws:
        await ws.send(message)


async def serve():
    async with websockets.serve(handler, "127.0.0.1", 0, max_size=MAX, compression="deflate") as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"listening on 127.0.0.1:{port}", flush=True)
        await asyncio.Future()


async def client(url):
    async with websockets.connect(url + "/echo", max_size=MAX, compression="deflate") as ws:
        print("extensions", ",".join(e.name for e in ws.extensions), flush=True)
        await ws.send("Hello, κόσμε")
        print("text", await ws.recv() == "Hello, κόσμε", flush=True)
        await ws.send(bytes(range(256)))
        print("binary", await ws.recv() == bytes(range(256)), flush=True)
        big = bytes(i * 7 % 251 for i in range(2 ** 20))
        await ws.send(big)
        print("mebibyte", await ws.recv() == big, flush=True)
        await ws.send(["frag", "κό", "σμε"])
        print("fragmented", await ws.recv() == "fragκόσμε", flush=True)
        pong = await ws.ping(b"are you there")
        await asyncio.wait_for(pong, 5)
        print("pong", True, flush=True)
        await ws.close(4000, "done")
        print("closed", ws.close_code, ws.close_reason, flush=True)
    async with websockets.connect(url + "/close/4001", max_size=MAX) as ws:
        try:
            await ws.recv()
        except websockets.ConnectionClosed:
            pass
        print("server closed", ws.close_code, ws.close_reason, flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "server":
        asyncio.run(serve())
    else:
        asyncio.run(client(sys.argv[2]))

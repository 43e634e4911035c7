"""Python's websockets for bench/ws-compare.sh, on uvloop when it is installed (argv[1] "uvloop")
or asyncio: /ws echoes every message as it came, /broadcast sends each message to every other
connection (websockets.broadcast); no compression, no keep-alive pings. Prints "listening on
127.0.0.1:PORT"."""
import asyncio
import sys

import websockets

members = set()


async def handler(ws, path=None):
    path = path if path is not None else ws.path
    if path == "/broadcast":
        members.add(ws)
        try:
            async for message in ws:
                websockets.broadcast(members - {ws}, message)
        finally:
            members.discard(ws)
    else:
        async for message in ws:
            await ws.send(message)


async def main():
    async with websockets.serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None,
                                max_size=2 ** 20) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"listening on 127.0.0.1:{port}", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    if sys.argv[1:] == ["uvloop"]:
        import uvloop
        uvloop.install()
    asyncio.run(main())

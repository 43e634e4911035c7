"""Python's websockets as a client that waits for the server to close: prints "open" once
connected, then "closed CODE clean" when the closing handshake completed (both close frames),
or "closed CODE error" when the connection was lost without it (CODE: the code received, or None).
"""
import asyncio
import sys

import websockets
from websockets.exceptions import ConnectionClosedError, ConnectionClosedOK


async def main(url):
    async with websockets.connect(url) as ws:
        print("open", flush=True)
        try:
            await ws.recv()
            print("a message came", flush=True)
        except ConnectionClosedOK as e:
            print("closed", e.rcvd.code if e.rcvd else None, "clean", flush=True)
        except ConnectionClosedError as e:
            print("closed", e.rcvd.code if e.rcvd else None, "error", flush=True)


asyncio.run(main(sys.argv[1]))

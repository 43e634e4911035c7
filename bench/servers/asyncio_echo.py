"""The CPython echo server of the comparison: asyncio's protocol API or its streams API, on the
default loop or (--uvloop) on uvloop. Prints "listening on HOST:PORT" once bound, runs until
killed. Usage: python3 asyncio_echo.py --host 127.0.0.1 --port P --api protocol|streams [--uvloop]
"""
import argparse
import asyncio
import socket
import sys


class EchoProtocol(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data):
        self.transport.write(data)


async def echo_stream(reader, writer):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


async def serve(host, port, api):
    loop = asyncio.get_running_loop()
    if api == "protocol":
        server = await loop.create_server(EchoProtocol, host, port, backlog=1024)
    else:
        server = await asyncio.start_server(echo_stream, host, port, backlog=1024)
    bound = server.sockets[0].getsockname()
    print(f"listening on {bound[0]}:{bound[1]}", flush=True)
    async with server:
        await server.serve_forever()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--api", choices=["protocol", "streams"], default="protocol")
    parser.add_argument("--uvloop", action="store_true", help="run on uvloop")
    args = parser.parse_args()
    if args.uvloop:
        import uvloop
        uvloop.install()
    try:
        asyncio.run(serve(args.host, args.port, args.api))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()

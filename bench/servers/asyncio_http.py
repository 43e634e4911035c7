"""The CPython HTTP server of bench/compare-http.sh: an asyncio protocol parsing with httptools
(the shape of uvloop's own HTTP benchmark server), on the default loop or (--uvloop) on uvloop.
Every request gets the same body: "Hello, world!" (13 bytes) or --size N bytes, with
Content-Type, Content-Length and a Date formatted once per second; keep-alive as the request
says. Prints "listening on HOST:PORT" once bound, runs until killed.
Usage: python3 asyncio_http.py --host 127.0.0.1 --port P [--size N] [--uvloop]
"""
import argparse
import asyncio
import email.utils
import socket

import httptools


class Responses:
    """The one response, its head re-encoded when the second changes (for the Date)."""

    def __init__(self, body):
        self.body = body
        self.second = None
        self.keep_alive = self.close = None

    def encoded(self, loop, keep_alive):
        now = int(loop.time())
        if now != self.second:
            self.second = now
            date = email.utils.formatdate(usegmt=True)
            head = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nDate: %s\r\n"
                    % (len(self.body), date))
            self.keep_alive = head.encode("latin-1") + b"\r\n" + self.body
            self.close = head.encode("latin-1") + b"Connection: close\r\n\r\n" + self.body
        return self.keep_alive if keep_alive else self.close


class HttpProtocol(asyncio.Protocol):
    def __init__(self, responses):
        self.responses = responses
        self.parser = httptools.HttpRequestParser(self)
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data):
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            self.transport.close()

    def on_message_complete(self):
        keep_alive = self.parser.should_keep_alive()
        self.transport.write(self.responses.encoded(asyncio.get_running_loop(), keep_alive))
        if not keep_alive:
            self.transport.close()


async def serve(host, port, size):
    loop = asyncio.get_running_loop()
    body = b"Hello, world!" if size < 0 else b"x" * size
    responses = Responses(body)
    server = await loop.create_server(lambda: HttpProtocol(responses), host, port, backlog=1024)
    bound = server.sockets[0].getsockname()
    print("listening on %s:%d" % (bound[0], bound[1]), flush=True)
    await server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--size", type=int, default=-1)
    parser.add_argument("--uvloop", action="store_true")
    args = parser.parse_args()
    if args.uvloop:
        import uvloop
        uvloop.install()
    try:
        asyncio.run(serve(args.host, args.port, args.size))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

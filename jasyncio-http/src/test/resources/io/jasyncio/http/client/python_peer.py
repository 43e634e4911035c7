"""The HTTP/1.1 server the client's interop tests talk to: CPython's http.server, keep-alive on,
with one path per behaviour under test. Prints "listening on 127.0.0.1:PORT" once bound; runs
until killed (the test kills it). Loopback only."""
import itertools
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

connection_ids = itertools.count(1)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive unless a path closes

    def setup(self):
        super().setup()
        self.connection_id = next(connection_ids)
        self.requests_seen = 0

    def log_message(self, *args):
        pass

    def reply(self, body, status=200, extra=()):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        self.requests_seen += 1
        path, _, query = self.path.partition("?")
        if path == "/conn":  # which connection carried the request
            self.reply(str(self.connection_id).encode())
        elif path == "/chunked":  # three chunks, one with an extension, and a trailer
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"5\r\nhello\r\n1;ext=1\r\n,\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n")
        elif path == "/close":  # the server ends the connection after this response
            self.reply(str(self.connection_id).encode(), extra=[("Connection", "close")])
            self.close_connection = True
        elif path == "/eof":  # no framing: the body ends when the connection does
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"until the end")
            self.close_connection = True
        elif path == "/bad":  # two differing Content-Length fields: a smuggling shape a client must refuse
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!")
        elif path == "/drop-second":  # a keep-alive connection the server drops as the next request comes
            if self.requests_seen >= 2:
                self.close_connection = True
                return
            self.reply(str(self.connection_id).encode())
        elif path == "/big":  # n bytes of a repeating pattern, written in 64 KiB pieces
            n = int(query.partition("=")[2])
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            piece = bytes(i % 251 for i in range(65536))
            sent = 0
            try:
                while sent < n:
                    k = min(len(piece), n - sent)
                    self.wfile.write(piece[:k])
                    sent += k
            except OSError:
                self.close_connection = True
        elif path == "/stall-body":  # the head and part of the body, then nothing
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.hold()
        elif path == "/never":  # the request is read, no answer ever comes
            self.hold()
        elif path == "/cookies":  # n Set-Cookie fields (a response head that sets many cookies)
            n = int(query.partition("=")[2])
            self.send_response(200)
            for i in range(n):
                self.send_header("Set-Cookie", "c%d=%d; Path=/" % (i, i))
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")
        elif path == "/trickle-head":  # the response head one byte every 0.2 s (bounded: 60 s)
            self.close_connection = True
            try:
                for b in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"y" * 300:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
        else:
            self.reply(b"not found", status=404)

    def hold(self):
        """Keeps the connection silent until the client closes it (bounded: 60 s)."""
        self.close_connection = True
        self.connection.settimeout(60)
        try:
            while self.connection.recv(65536):
                pass
        except OSError:
            pass

    def handle_expect_100(self):
        if self.path == "/continue-late":  # a client that does not wait for the 100 sends its body meanwhile
            time.sleep(0.2)
            self.connection.setblocking(False)
            try:
                self.body_before_continue = len(self.rfile.peek(1)) > 0
            finally:
                self.connection.setblocking(True)
        return super().handle_expect_100()

    def do_POST(self):  # the body's length in bytes; chunked request bodies decoded here
        self.requests_seen += 1
        if self.path == "/refuse":  # 413 at once, then the body read and dropped until the client stops (a lingering close)
            self.reply(b"too large", status=413, extra=[("Connection", "close")])
            self.close_connection = True
            self.connection.settimeout(30)
            try:
                while self.connection.recv(65536):
                    pass
            except OSError:
                pass
            return
        if self.path == "/unread":  # the head is read, the body never is, no answer comes (bounded: 20 s)
            self.close_connection = True
            time.sleep(20)
            return
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            total = 0
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b""):
                        pass
                    break
                total += len(self.rfile.read(size))
                self.rfile.readline()
        else:
            total = len(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        if self.path == "/continue-late":
            early, self.body_before_continue = getattr(self, "body_before_continue", False), False
            self.reply((("early %d" if early else "waited %d") % total).encode())
            return
        self.reply(str(total).encode())


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def exit_with_parent():
    """The test holds this process's stdin: when it closes (the test ended, however), so does the peer."""
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = Server(("127.0.0.1", 0), Handler)
print("listening on 127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()

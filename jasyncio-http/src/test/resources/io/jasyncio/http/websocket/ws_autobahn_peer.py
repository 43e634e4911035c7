"""python3-autobahn's WebSocket client as an interop peer, and as the source of bad input: its
sendFrame writes any frame (reserved bits, opcodes, no mask, any payload), as the Autobahn
testsuite's fuzzing client does.

usage: ws_autobahn_peer.py URL: runs each of CASES on a connection of its own and prints one line
per case: its name, "echo ok plain|deflate" for the echo cases, and "closed CODE" with the close
code the server sent (None for a close frame without one).
"""
import asyncio
import sys

from autobahn.asyncio.websocket import WebSocketClientFactory, WebSocketClientProtocol
from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateResponse, \
    PerMessageDeflateResponseAccept

TEXT, BINARY, CLOSE, PING = 1, 2, 8, 9

# case -> (frames to send: (opcode, payload, fin, rsv)), or "echo"/"echo-deflate"
CASES = {
    "echo": "echo",
    "echo-deflate": "echo",
    "unmasked": [(TEXT, b"no mask", True, 0)],
    "rsv1-without-extension": [(TEXT, b"rsv1", True, 4)],
    "rsv2": [(TEXT, b"rsv2", True, 2)],
    "rsv3-on-ping": [(PING, b"rsv3", True, 1)],
    "opcode-3": [(3, b"", True, 0)],
    "opcode-11": [(11, b"x", True, 0)],
    "bad-utf8": [(TEXT, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80edited", True, 0)],
    "bad-utf8-first-fragment": [(TEXT, b"\xed\xa0\x80", False, 0)],
    "oversized": [(BINARY, b"x" * (64 * 1024 + 1), True, 0)],
    "ping-over-125": [(PING, b"x" * 126, True, 0)],
    "fragmented-ping": [(PING, b"x", False, 0)],
    "continuation-first": [(0, b"x", True, 0)],
    "text-inside-fragments": [(TEXT, b"a", False, 0), (TEXT, b"b", True, 0)],
    "close-code-999": [(CLOSE, (999).to_bytes(2, "big"), True, 0)],
    "close-code-1005": [(CLOSE, (1005).to_bytes(2, "big"), True, 0)],
    "close-one-byte": [(CLOSE, b"\x03", True, 0)],
    "close-bad-utf8-reason": [(CLOSE, (1000).to_bytes(2, "big") + b"\xff", True, 0)],
    "close-4000": [(CLOSE, (4000).to_bytes(2, "big") + b"bye", True, 0)],
    "close-empty": [(CLOSE, b"", True, 0)],
}


class Peer(WebSocketClientProtocol):
    def onOpen(self):
        case = CASES[self.factory.case]
        if case == "echo":
            self.expected = ["Hello, κόσμε".encode(), bytes(range(256)), b"all work and no play " * 200]
            self.sendMessage(self.expected[0], isBinary=False)
            self.sendMessage(self.expected[1], isBinary=True)
            self.sendMessage(self.expected[2], isBinary=False)
            return
        for opcode, payload, fin, rsv in case:
            self.sendFrame(opcode, payload, fin=fin, rsv=rsv)

    def onMessage(self, payload, isBinary):
        if CASES[self.factory.case] == "echo":
            want = self.expected.pop(0)
            if payload != want:
                self.factory.lines.append("echo mismatch")
            if not self.expected:
                self.factory.lines.append("echo ok " + ("deflate" if self.websocket_extensions_in_use else "plain"))
                self.sendClose(1000)

    def onClose(self, wasClean, code, reason):
        self.factory.lines.append("closed " + str(self.remoteCloseCode))
        if not self.factory.done.done():
            self.factory.done.set_result(None)


def accept_deflate(response):
    if isinstance(response, PerMessageDeflateResponse):
        return PerMessageDeflateResponseAccept(response)


async def run_case(url, case):
    factory = WebSocketClientFactory(url)
    factory.protocol = Peer
    factory.case = case
    factory.lines = []
    factory.done = asyncio.get_running_loop().create_future()
    options = {"maskClientFrames": case != "unmasked", "failByDrop": False, "closeHandshakeTimeout": 5}
    if case == "echo-deflate":
        options["perMessageCompressionOffers"] = [PerMessageDeflateOffer()]
        options["perMessageCompressionAccept"] = accept_deflate
    factory.setProtocolOptions(**options)
    host, port = url.split("/")[2].split(":")
    await asyncio.get_running_loop().create_connection(factory, host, int(port))
    await asyncio.wait_for(factory.done, 10)
    return " ".join(factory.lines)


async def main(url):
    for case in CASES:
        print(case, await run_case(url, case), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))

package io.jasyncio.http.websocket;

import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Interop with Python's websockets (asyncio's WebSocket library, Debian's python3-websockets),
 * both directions, on every loop: text, binary, a mebibyte, fragments, permessage-deflate, ping,
 * and the closing handshake begun by either side. (Debug mode is off: inflating a mebibyte
 * passes its slow-callback mark.)
 */
@OnEveryLoop
@EveryEngine
class PythonWebSocketsTest {
    @AutoClose
    private static Peers.Server server;
    private static Path script;

    @BeforeAll
    static void startPeer() throws Exception {
        Peers.requirePythonPeers();
        script = Peers.resource("ws_python_peer.py");
        server = new Peers.Server(java.util.List.of(Peers.PYTHON, script.toString(), "server"), null);
    }

    @AsyncTest(debug = false, timeout = 30)
    void ourClientAgainstTheirServer(EventLoop loop) throws IOException {
        // websockets limits both windows to 12 bits (to save memory): then our client sends uncompressed
        PeerChecks.ourClientAgainst(loop, server.url(), PeerChecks.OPTIONS,
                "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12");
        PeerChecks.ourClientAgainst(loop, server.url(), PeerChecks.OPTIONS.withNoContextTakeover(true, true),
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12; client_max_window_bits=12");
        PeerChecks.ourClientAgainst(loop, server.url(), PeerChecks.OPTIONS.withCompression(false), null);
    }

    @AsyncTest(debug = false, timeout = 30)
    void theirClientAgainstOurServer(EventLoop loop) throws IOException {
        PeerChecks.peerClientAgainstUs(script.getParent(), Peers.PYTHON, script.toString(), "client");
    }
}

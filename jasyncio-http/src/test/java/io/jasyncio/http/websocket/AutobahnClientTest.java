package io.jasyncio.http.websocket;

import io.jasyncio.http.server.HttpServer;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * python3-autobahn's client against our server, on every loop: an echo plain and compressed, then
 * bad input written by autobahn's own frame writer (as the Autobahn testsuite's fuzzing client
 * does), one connection per case, in the testsuite's categories: framing (an unmasked client
 * frame, an oversized message), reserved bits, reserved opcodes, fragmentation (control frames
 * fragmented or over 125 bytes, continuations out of place), UTF-8 (a bad sequence, one in a
 * first fragment: refused before the message ends) and close handling (invalid codes, a one-byte
 * payload, a bad reason; a good code echoed, an empty close answered empty). Each must be
 * answered with the RFC's close code.
 */
@OnEveryLoop
@EveryEngine
class AutobahnClientTest {
    private static final List<String> EXPECTED = List.of(
            "echo echo ok plain closed 1000",
            "echo-deflate echo ok deflate closed 1000",
            "unmasked closed 1002",
            "rsv1-without-extension closed 1002",
            "rsv2 closed 1002",
            "rsv3-on-ping closed 1002",
            "opcode-3 closed 1002",
            "opcode-11 closed 1002",
            "bad-utf8 closed 1007",
            "bad-utf8-first-fragment closed 1007",
            "oversized closed 1009",
            "ping-over-125 closed 1002",
            "fragmented-ping closed 1002",
            "continuation-first closed 1002",
            "text-inside-fragments closed 1002",
            "close-code-999 closed 1002",
            "close-code-1005 closed 1002",
            "close-one-byte closed 1002",
            "close-bad-utf8-reason closed 1007",
            "close-4000 closed 4000",
            "close-empty closed None");

    private static Path script;

    @BeforeAll
    static void install() throws Exception {
        Peers.requirePythonPeers();
        script = Peers.resource("ws_autobahn_peer.py");
    }

    // debug off: it logs the child's exit, and the first steps pass its slow-callback mark on a busy machine
    @AsyncTest(debug = false, timeout = 30)
    void everyCaseIsAnsweredWithItsCloseCode(EventLoop loop) throws IOException {
        HttpServer http = EchoServer.start(WebSocketOptions.defaults().withMaxMessageSize(64 * 1024));
        try {
            List<String> lines = Peers.runClient(script.getParent(), Peers.PYTHON, script.toString(),
                    "ws://127.0.0.1:" + http.port() + "/echo");
            assertEquals(EXPECTED, lines);
        } finally {
            http.close();
        }
    }
}

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
 * Interop with Node's ws (installed by npm into src/test/node when missing), both directions, on
 * every loop: the exchange of {@link PeerChecks}.
 */
@OnEveryLoop
@EveryEngine
class NodeWsTest {
    @AutoClose
    private static Peers.Server server;
    private static Path dir;

    @BeforeAll
    static void startPeer() throws Exception {
        dir = Peers.nodePeerDir();
        server = new Peers.Server(java.util.List.of("node", "ws_node_peer.js", "server"), dir);
    }

    @AsyncTest(debug = false, timeout = 30)
    void ourClientAgainstTheirServer(EventLoop loop) throws IOException {
        PeerChecks.ourClientAgainst(loop, server.url(), PeerChecks.OPTIONS, "permessage-deflate");
        PeerChecks.ourClientAgainst(loop, server.url(), PeerChecks.OPTIONS.withNoContextTakeover(true, true),
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover");
    }

    @AsyncTest(debug = false, timeout = 30)
    void theirClientAgainstOurServer(EventLoop loop) throws IOException {
        PeerChecks.peerClientAgainstUs(dir, "node", "ws_node_peer.js", "client");
    }
}

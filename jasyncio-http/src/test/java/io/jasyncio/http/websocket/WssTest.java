package io.jasyncio.http.websocket;

import io.jasyncio.http.TestCertificate;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.TlsOptions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** wss:// on every loop: our client and server over the loop's TLS, with a certificate openssl made. */
@OnEveryLoop
class WssTest {
    @AutoClose
    private static TestCertificate certificate;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificate = TestCertificate.create();
    }

    @AsyncTest(debug = false)
    void echoesOverTls(EventLoop loop) throws Exception {
        HttpServerOptions tls = HttpServerOptions.defaults();
        tls = tls.withServerOptions(tls.serverOptions().withTls(TlsOptions.of(certificate.serverContext())));
        HttpServer http = EchoServer.start(WebSocketOptions.defaults(), tls);
        WebSocket ws = WebSocketClient.connect(loop, "wss://127.0.0.1:" + http.port() + "/echo",
                WebSocketOptions.defaults().withTls(TlsOptions.of(certificate.trustingContext())));
        ws.send("over TLS");
        assertEquals("over TLS", ws.receive().text());
        ws.close();
        assertEquals(1000, ws.closeCode());
        http.close();
    }
}

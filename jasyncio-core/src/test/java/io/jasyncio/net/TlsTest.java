package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.security.cert.X509Certificate;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
@EveryLoop
@EveryEngine
class TlsTest {
    static TestCertificates certs;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certs = TestCertificates.shared();
    }

    static Server echoServer() throws Exception {
        return startServer((reader, writer) -> {
            while (true) {
                byte[] data = reader.read(64 * 1024);
                if (data.length == 0) {
                    break;
                }
                writer.write(data);
                writer.drain();
            }
            writer.close();
        }, "127.0.0.1", 0, ServerOptions.defaults().withTls(TlsOptions.of(certs.server)));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void tlsEchoWithTheTestCertificate(String loopName) {
        byte[] payload = NetTesting.pattern(1 << 20, 5);
        NetTesting.run(loopName, 40, () -> {
            Server server = echoServer();
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server), TlsOptions.of(certs.trustingClient));
            assertInstanceOf(X509Certificate.class, c.writer().getExtraInfo("peercert"));
            assertNotNull(c.writer().getExtraInfo("cipher"));
            assertNotNull(c.writer().getExtraInfo("sslcontext"));
            assertNotNull(c.writer().getExtraInfo("peername"));
            assertFalse(c.writer().canWriteEof());
            c.writer().write("hello over tls\n".getBytes());
            assertEquals("hello over tls\n", new String(c.reader().readline()));
            c.writer().write(payload);
            c.writer().drain();
            assertArrayEquals(payload, c.reader().readexactly(payload.length));
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theCertificateNameIsCheckedAgainstServerHostname(String loopName) {
        NetTesting.run(loopName, 40, () -> {
            Server server = echoServer();
            int port = NetTesting.port(server);
            StreamConnection ok = openConnection("127.0.0.1", port,
                    TlsOptions.of(certs.trustingClient).withServerHostname("localhost"));
            ok.writer().write("x\n".getBytes());
            assertEquals("x\n", new String(ok.reader().readline()));
            ok.writer().close();

            SSLHandshakeException e = assertThrows(SSLHandshakeException.class, () -> openConnection("127.0.0.1", port,
                    TlsOptions.of(certs.trustingClient).withServerHostname("wrong.example")));
            assertTrue(String.valueOf(e.getMessage()).contains("wrong.example"), e.getMessage());
            NetTesting.closeServer(server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void anUntrustedCertificateIsRejected(String loopName) {
        NetTesting.run(loopName, 40, () -> {
            Server server = echoServer();
            SSLException e = assertThrows(SSLException.class,
                    () -> openConnection("127.0.0.1", NetTesting.port(server), TlsOptions.systemDefault()));
            assertInstanceOf(SSLHandshakeException.class, e);
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** A plain connection upgraded in place, both ends, as SMTP's STARTTLS does. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void startTlsUpgradesALiveConnection(String loopName) {
        NetTesting.run(loopName, 40, () -> {
            Server server = startServer((reader, writer) -> {
                assertEquals("STARTTLS\n", new String(reader.readline()));
                writer.write("OK\n".getBytes());
                writer.startTls(TlsOptions.of(certs.server));
                byte[] line = reader.readline();
                writer.write(("secure: " + new String(line)).getBytes());
                writer.drain();
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            assertNull(c.writer().getExtraInfo("sslcontext"));
            c.writer().write("STARTTLS\n".getBytes());
            assertEquals("OK\n", new String(c.reader().readline()));
            c.writer().startTls(TlsOptions.of(certs.trustingClient).withServerHostname("localhost"));
            assertNotNull(c.writer().getExtraInfo("sslcontext"));
            c.writer().write("ping\n".getBytes());
            assertEquals("secure: ping\n", new String(c.reader().readline()));
            assertEquals(0, c.reader().read(-1).length);
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void protocolsOverTls(String loopName) {
        NetTesting.run(loopName, 40, () -> {
            EventLoop loop = getRunningLoop();
            Server server = Network.createServer(loop, NetTesting.EchoProtocol::new, List.of("127.0.0.1"), 0,
                    ServerOptions.defaults().withTls(TlsOptions.of(certs.server)));
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", NetTesting.port(server), ConnectOptions.defaults().withTls(TlsOptions.of(certs.trustingClient)));
            byte[] payload = NetTesting.pattern(200_000, 11);
            c.protocol().expected = payload.length;
            c.transport().write(payload);
            await(c.protocol().gotExpected);
            assertArrayEquals(payload, c.protocol().received.toByteArray());
            c.transport().close();
            assertNull(await(c.protocol().lost));
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** A peer that accepts TCP but never answers the TLS hello: the handshake timeout ends it. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aSilentPeerHitsTheHandshakeTimeout(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Server silent = Network.createServer(loop, () -> new Protocol() {
            }, "127.0.0.1", 0);
            long start = System.nanoTime();
            SSLHandshakeException e = assertThrows(SSLHandshakeException.class, () -> Network.createConnection(loop,
                    () -> new NetTesting.RecordingProtocol(loop, false), "127.0.0.1", NetTesting.port(silent),
                    ConnectOptions.defaults().withTls(TlsOptions.of(certs.trustingClient).withHandshakeTimeout(0.2))));
            assertEquals("SSL handshake is taking longer than 0.2 seconds: aborting the connection", e.getMessage());
            assertTrue((System.nanoTime() - start) / 1e9 >= 0.15, "gave up before the timeout");
            silent.close();
            return null;
        });
    }

    /** close() waits for the peer's close_notify; a peer that never reads it costs shutdownTimeout, no more. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aPeerThatNeverAnswersCloseNotifyHitsTheShutdownTimeout(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Server deaf = Network.createServer(loop, () -> new Protocol() {
                @Override
                public void connectionMade(Transport transport) {
                    transport.pauseReading();
                }
            }, List.of("127.0.0.1"), 0, ServerOptions.defaults().withTls(TlsOptions.of(certs.server)));
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", NetTesting.port(deaf), ConnectOptions.defaults().withTls(TlsOptions.of(certs.trustingClient).withShutdownTimeout(0.3)));
            long start = System.nanoTime();
            c.transport().close();
            Throwable cause = await(c.protocol().lost);
            double took = (System.nanoTime() - start) / 1e9;
            assertInstanceOf(SSLException.class, cause);
            assertEquals("SSL shutdown timed out", cause.getMessage());
            assertTrue(took >= 0.25, "closed after " + took + " s, before the shutdown timeout");
            deaf.close();
            deaf.abortClients();
            return null;
        });
    }
}

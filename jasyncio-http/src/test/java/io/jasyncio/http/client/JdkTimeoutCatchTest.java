package io.jasyncio.http.client;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.net.http.HttpTimeoutException;

import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The import an IDE may pick, {@code java.net.http.HttpTimeoutException}, still catches the
 * client's timeout: jasyncio's extends the JDK's (issue 37: the wrong import compiled into a
 * catch that never fired).
 */
class JdkTimeoutCatchTest {

    @AsyncTest
    void theJdksTimeoutExceptionCatchesTheClientsTimeout(EventLoop loop) throws IOException {
        HttpServer slow = HttpServer.start(loop, request -> {
            sleep(30);
            return HttpResponse.empty(204);
        }, "127.0.0.1", 0, HttpServerOptions.defaults());
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withResponseHeadersTimeout(0.2))) {
            client.get("http://127.0.0.1:" + slow.port() + "/slow").close();
            fail("no timeout");
        } catch (HttpTimeoutException jdkName) { // the JDK's class, on purpose
            assertEquals(io.jasyncio.http.client.HttpTimeoutException.Phase.RESPONSE_HEADERS,
                    ((io.jasyncio.http.client.HttpTimeoutException) jdkName).phase());
        } finally {
            slow.close();
        }
    }
}

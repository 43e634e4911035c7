package io.jasyncio.http.client;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test's python peer ({@link PeerProcess#python()}) for one test class, as a static
 * {@code @RegisterExtension} field: started before the class's tests, killed after them.
 */
final class PythonPeerExtension implements BeforeAllCallback, AfterAllCallback {
    private PeerProcess peer;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        peer = PeerProcess.python();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (peer != null) {
            peer.close();
        }
    }

    String url(String path) {
        return peer.url(path);
    }
}

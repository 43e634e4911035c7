package io.jasyncio.net;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for localhost / 127.0.0.1, made at test time with the JDK's keytool,
 * and the TLS contexts around it: the server's (presenting it) and a client's (trusting it).
 */
final class TestCertificates {
    private static final char[] PASSWORD = "changeit".toCharArray();

    final SSLContext server;
    final SSLContext trustingClient;

    private TestCertificates(SSLContext server, SSLContext trustingClient) {
        this.server = server;
        this.trustingClient = trustingClient;
    }

    private static TestCertificates shared;

    /** One certificate for every test class in this JVM (keytool takes seconds on a busy machine). */
    static synchronized TestCertificates shared() throws Exception {
        if (shared == null) {
            Path dir = Files.createTempDirectory("jasyncio-test-certs");
            shared = create(dir);
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f); // the contexts are in memory: the store is not needed any more
                }
            }
            Files.delete(dir);
        }
        return shared;
    }

    static TestCertificates create(Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(kmf.getKeyManagers(), null, null);

        Certificate cert = keys.getCertificate("server");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, tmf.getTrustManagers(), null);
        return new TestCertificates(server, client);
    }
}

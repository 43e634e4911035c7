package io.jasyncio.http;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate made by openssl for a test class (for localhost and 127.0.0.1), in a
 * temporary directory removed on close: the PEM files for peers (openssl, curl), a server
 * context presenting it and a client context trusting it.
 */
public final class TestCertificate implements AutoCloseable {
    private static final String PASSWORD = "changeit";
    private final Path dir;

    private TestCertificate(Path dir) {
        this.dir = dir;
    }

    /** Makes a new key and certificate (openssl, 30 s at most per step). */
    public static TestCertificate create() throws IOException, InterruptedException {
        TestCertificate made = new TestCertificate(Files.createTempDirectory("jasyncio-http-tls"));
        made.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1");
        made.openssl("pkcs12", "-export", "-inkey", "key.pem", "-in", "cert.pem", "-out", "server.p12",
                "-passout", "pass:" + PASSWORD);
        return made;
    }

    public Path certificate() {
        return dir.resolve("cert.pem");
    }

    public Path key() {
        return dir.resolve("key.pem");
    }

    /** A server context presenting the certificate. */
    public SSLContext serverContext() throws IOException, GeneralSecurityException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        return context;
    }

    /** A client context trusting the certificate (and nothing else). */
    public SSLContext trustingContext() throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate())) {
            trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    private void openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("openssl " + String.join(" ", args) + " failed");
        }
    }

    @Override
    public void close() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }
}

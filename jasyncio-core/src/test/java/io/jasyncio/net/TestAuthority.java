package io.jasyncio.net;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made at test time with the openssl command, and two certificates it
 * signed: the server's (localhost, 127.0.0.1) and a client's (CN=client). The PEM files serve
 * openssl and CPython peers; the SSL contexts serve jasyncio, each trusting the authority.
 */
final class TestAuthority {
    private static final String PASSWORD = "changeit";

    final Path dir;
    final Path caPem;
    final Path serverPem;
    final Path serverKey;
    final Path clientPem;
    final Path clientKey;

    private TestAuthority(Path dir) {
        this.dir = dir;
        this.caPem = dir.resolve("ca.pem");
        this.serverPem = dir.resolve("server.pem");
        this.serverKey = dir.resolve("server.key");
        this.clientPem = dir.resolve("client.pem");
        this.clientKey = dir.resolve("client.key");
    }

    static TestAuthority create(Path dir) throws Exception {
        TestAuthority ca = new TestAuthority(dir);
        Files.writeString(dir.resolve("server.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
        Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
        ca.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=jasyncio-test-ca");
        for (String who : List.of("server", "client")) {
            ca.openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", who + ".key", "-out", who + ".csr", "-subj", "/CN=" + (who.equals("server") ? "localhost" : who));
            ca.openssl("x509", "-req", "-in", who + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", who + ".pem", "-days", "2", "-extfile", who + ".ext");
            ca.openssl("pkcs12", "-export", "-inkey", who + ".key", "-in", who + ".pem", "-certfile", "ca.pem",
                    "-out", who + ".p12", "-passout", "pass:" + PASSWORD);
        }
        return ca;
    }

    /** A context presenting the server's certificate and trusting the authority (to check client certificates). */
    SSLContext serverContext() throws Exception {
        return context("server.p12");
    }

    /** A context trusting the authority and presenting the client certificate. */
    SSLContext clientWithCertificate() throws Exception {
        return context("client.p12");
    }

    /** A context trusting the authority, presenting nothing. */
    SSLContext clientWithoutCertificate() throws Exception {
        return context(null);
    }

    private SSLContext context(String keyStoreFile) throws Exception {
        KeyManagerFactory kmf = null;
        if (keyStoreFile != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(dir.resolve(keyStoreFile))) {
                keys.load(in, PASSWORD.toCharArray());
            }
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, PASSWORD.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private void openssl(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + output);
        }
    }
}

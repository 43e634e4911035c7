package io.jasyncio.lab.net;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A plain blocking HTTP/1.1 client over one keep-alive connection, for load from ordinary
 * threads: enough to send GETs to {@link TinyHttpServer} and read its answers.
 */
public final class BlockingHttpClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public BlockingHttpClient(int port, int timeoutMillis) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMillis);
        socket.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends {@code GET path} and returns the response's status code (its body is read and dropped). */
    public int get(String path) throws IOException {
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        String statusLine = readLine();
        String[] parts = statusLine.split(" ");
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP response: " + statusLine);
        }
        int length = 0;
        String line;
        while (!(line = readLine()).isEmpty()) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(line.substring(colon + 1).trim());
            }
        }
        if (in.readNBytes(length).length != length) {
            throw new IOException("connection closed inside a response body");
        }
        return Integer.parseInt(parts[1]);
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed inside a response head");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.net.IncompleteReadException;
import io.jasyncio.net.Server;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamWriter;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;

/** Scenario 44: TCP streams on 127.0.0.1: readline, readexactly, readuntil, IncompleteReadError at EOF. */
public final class S44StreamsEcho extends Scenario {
    @Override
    public String name() {
        return "44_streams_echo";
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String stripNewline(byte[] line) {
        String s = text(line);
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '\n') {
            end--;
        }
        return s.substring(0, end);
    }

    private void handle(StreamReader reader, StreamWriter writer) throws Exception {
        while (true) {
            byte[] line = reader.readline();
            if (line.length == 0) {
                break;
            }
            String cmd = stripNewline(line);
            print("server got:", cmd);
            if (cmd.startsWith("ECHO ")) {
                writer.write(bytes(cmd.substring(5) + "\n"));
            } else if (cmd.startsWith("BYTES ")) {
                writer.write(bytes("0123456789".substring(0, Integer.parseInt(cmd.substring(6)))));
            } else if (cmd.equals("UNTIL")) {
                writer.write(bytes("alpha|beta|"));
            } else if (cmd.equals("PARTIAL") || cmd.equals("TAIL")) {
                writer.write(bytes(cmd.equals("PARTIAL") ? "abc" : "no newline here"));
                writer.drain();
                writer.close();
                writer.waitClosed();
                return;
            }
            writer.drain();
        }
        writer.close();
        writer.waitClosed();
    }

    @Override
    protected void run() throws Exception {
        asyncioRun(() -> {
            Server server = startServer(this::handle, "127.0.0.1", 0);
            int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();

            StreamConnection c = openConnection("127.0.0.1", port);
            StreamReader reader = c.reader();
            StreamWriter writer = c.writer();
            writer.write(bytes("ECHO hello\n"));
            writer.drain();
            print("client readline:", stripNewline(reader.readline()));

            writer.write(bytes("ECHO one\nECHO two\n"));
            writer.drain();
            print("client readline:", stripNewline(reader.readline()));
            print("client readline:", stripNewline(reader.readline()));

            writer.write(bytes("BYTES 7\n"));
            writer.drain();
            print("client readexactly:", text(reader.readexactly(7)));

            writer.write(bytes("UNTIL\n"));
            writer.drain();
            print("client readuntil:", text(reader.readuntil(bytes("|"))));
            print("client readuntil:", text(reader.readuntil(bytes("|"))));

            writer.write(bytes("PARTIAL\n"));
            writer.drain();
            try {
                reader.readexactly(10);
            } catch (IncompleteReadException e) {
                print("client IncompleteReadError: partial=" + text(e.partial()) + " expected=" + e.expected());
            }
            byte[] line = reader.readline();
            print("client readline at EOF: empty=" + b(line.length == 0));
            print("client at_eof:", b(reader.atEof()));
            writer.close();
            writer.waitClosed();

            c = openConnection("127.0.0.1", port);
            reader = c.reader();
            writer = c.writer();
            writer.write(bytes("TAIL\n"));
            writer.drain();
            try {
                reader.readuntil(bytes("\n"));
            } catch (IncompleteReadException e) {
                print("client IncompleteReadError: partial=" + text(e.partial()) + " expected=" + str(e.expected()));
            }
            writer.close();
            writer.waitClosed();

            server.close();
            server.waitClosed();
            print("server closed");
            return null;
        });
    }
}

package io.jasyncio.http;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our request parser against Node's llhttp (strict mode) on the corpus in
 * {@code llhttp/corpus.txt} and seeded random mutations of it: both must accept, reject and parse
 * alike (method, target, version, header fields, body, trailers). Where they differ, the
 * difference must be one listed below, each with the RFC 9112 (or 9110) clause that allows it:
 * we may refuse what llhttp accepts, never accept what it refuses.
 */
class LlhttpDifferentialTest {
    /** The suite's bounded run; bench/fuzz-http-parser.sh sets more mutations and other seeds. */
    private static final long SEED = Long.getLong("jasyncio.http.fuzz.seed", 20261202);
    private static final int MUTATIONS_PER_CASE = Integer.getInteger("jasyncio.http.fuzz.mutations", 60);

    /** Requests we refuse and llhttp accepts: our refusal's reason -> why RFC 9112 lets us. */
    private static final Map<String, String> STRICTER = new LinkedHashMap<>();

    static {
        STRICTER.put("without Host", "RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host (llhttp does not check)");
        STRICTER.put("more than one Host", "RFC 9112 §3.2: ... or with more than one Host field");
        STRICTER.put("an invalid Host value", "RFC 9112 §3.2: ... or with an invalid Host value (RFC 9110 §7.2: uri-host [\":\" port]; llhttp does not check)");
        STRICTER.put("method not implemented", "RFC 9110 §9.1: a method the server does not implement is answered 501 (llhttp knows ACL, BIND, LINK...)");
        STRICTER.put("CONNECT's request-target is host:port", "RFC 9112 §3.2.3: CONNECT's target is authority-form only (llhttp takes any)");
        STRICTER.put("a CONNECT request has no content", "RFC 9110 §9.3.6: a CONNECT request has no content; what follows its head is the tunnel's, so a framing field on it is refused (llhttp ignores it)");
        STRICTER.put("transfer coding not implemented", "RFC 9112 §6.1: a transfer coding the server does not understand SHOULD be answered 501 (llhttp passes gzip etc. through)");
        STRICTER.put("Transfer-Encoding in an HTTP/1.0 request", "RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding MUST be treated as faulty framing");
        STRICTER.put("a request line is method SP request-target SP HTTP-version", "RFC 9112 §3: one SP between the parts; parsing on any whitespace is a MAY, and HTTP/0.9's version-less line is not HTTP/1.1");
        STRICTER.put("a bare LF in the request line", "RFC 9112 §2.2: lines end in CRLF (taking a bare LF is a MAY); only an empty line (CRLF) before a request line SHOULD be ignored, and llhttp skips bare LFs there");
        STRICTER.put("a bare CR in the request line", "RFC 9112 §2.2: a bare CR MUST be taken as invalid (or as SP); llhttp skips it between requests");
        STRICTER.put("a transfer coding must be a token", "RFC 9112 §7: transfer-coding = token (llhttp matches chunked only and lets any other value pass)");
        STRICTER.put("the asterisk-form is for OPTIONS only", "RFC 9112 §3.2.4: the asterisk-form is only used for a server-wide OPTIONS request");
        STRICTER.put("a chunk extension's name must be a token", "RFC 9112 §7.1.1: chunk-ext-name = token (llhttp lets ';;' pass)");
        STRICTER.put("a chunk extension's value must be a token or a quoted-string", "RFC 9112 §7.1.1: chunk-ext-val = token / quoted-string, never empty (llhttp lets ';a=' pass)");
        STRICTER.put("a request-target is origin-form", "RFC 9112 §3.2: a request-target is one of four forms; the asterisk-form is \"*\" alone (llhttp takes \"*\\\"\" and \"**\")");
        STRICTER.put("HTTP version not supported", "RFC 9110 §15.6.6 / RFC 9112 §2.3: a major version other than 1 on the HTTP/1.1 wire is answered 505 (llhttp takes 2.0)");
    }

    /** Requests we accept and llhttp refuses: none is allowed. */
    private static final Map<String, String> LOOSER = Map.of();

    @Test
    void agreesWithLlhttpOnTheCorpusAndItsMutations() throws Exception {
        List<String> output = runNode();
        List<Case> cases = Case.parseAll(output);
        assertTrue(cases.size() > 1000, "cases: " + cases.size());
        List<String> unexplained = new ArrayList<>();
        Map<String, Integer> allowed = new LinkedHashMap<>();
        for (Case theirs : cases) {
            Case ours = Case.ours(theirs.name, theirs.input);
            String difference = compare(theirs, ours);
            if (difference == null) {
                continue;
            }
            String allowance = ours.rejected && !theirs.rejected ? allowanceFor(ours.reason) : null;
            if (allowance != null) {
                allowed.merge(allowance, 1, Integer::sum);
            } else {
                unexplained.add(theirs.name + " " + printable(theirs.input) + "\n    " + difference);
            }
        }
        System.out.println("llhttp differential: " + cases.size() + " cases; allowed differences: " + allowed);
        assertEquals(List.of(), unexplained, unexplained.size() + " unexplained differences from llhttp");
    }

    private static String allowanceFor(String ourReason) {
        for (Map.Entry<String, String> e : STRICTER.entrySet()) {
            if (ourReason.contains(e.getKey())) {
                return e.getKey();
            }
        }
        return null;
    }

    /** Null if the two parses agree, else what differs. */
    private static String compare(Case theirs, Case ours) {
        List<String> theirMessages = theirs.messages;
        List<String> ourMessages = ours.messages;
        int upgradeAt = -1;
        for (int i = 0; i < theirMessages.size(); i++) {
            if (theirMessages.get(i).startsWith("msg ") && theirMessages.get(i).endsWith(" 1")) {
                upgradeAt = i;
                break;
            }
        }
        if (upgradeAt >= 0) {
            // llhttp stops at an upgrade (the bytes after it are another protocol's); we may ignore
            // Upgrade (RFC 9110 §7.8) and go on parsing: compare up to that head only
            List<String> head = new ArrayList<>();
            for (String line : theirMessages.subList(upgradeAt, theirMessages.size())) {
                if (line.startsWith("body ")) {
                    break;
                }
                head.add(line.replaceAll(" 1$", " 0"));
            }
            List<String> expected = new ArrayList<>(theirMessages.subList(0, upgradeAt));
            expected.addAll(head);
            if (ourMessages.size() >= expected.size() && ourMessages.subList(0, expected.size()).equals(expected)) {
                return null;
            }
            if (ours.rejected && ourMessages.size() <= upgradeAt) {
                return "we refuse (" + ours.reason + ") before llhttp's upgrade";
            }
            return "messages up to the upgrade differ: llhttp " + expected + " ours " + ourMessages;
        }
        if (theirs.rejected != ours.rejected) {
            return ours.rejected ? "we refuse (" + ours.reason + "), llhttp accepts"
                    : "we accept, llhttp refuses (" + theirs.reason + ")";
        }
        if (!theirs.rejected && !theirMessages.equals(ourMessages)) {
            return "parsed differently: llhttp " + theirMessages + " ours " + ourMessages;
        }
        return null;
    }

    private static List<String> runNode() throws IOException, InterruptedException, URISyntaxException {
        Assumptions.assumeTrue(nodeAvailable(), "node is not installed: the differential test against llhttp needs it");
        Path script = Path.of(LlhttpDifferentialTest.class.getResource("/llhttp/differential.js").toURI());
        Path corpus = Path.of(LlhttpDifferentialTest.class.getResource("/llhttp/corpus.txt").toURI());
        Path out = Files.createTempFile("llhttp", ".txt");
        try {
            Process node = new ProcessBuilder("node", script.toString(), corpus.toString(), "" + SEED, "" + MUTATIONS_PER_CASE)
                    .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!node.waitFor(600, TimeUnit.SECONDS)) {
                node.destroyForcibly();
                throw new AssertionError("node did not finish within 600 s");
            }
            assertEquals(0, node.exitValue(), "node's exit status");
            return Files.readAllLines(out, StandardCharsets.ISO_8859_1);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static boolean nodeAvailable() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String printable(byte[] input) {
        StringBuilder sb = new StringBuilder();
        for (byte b : input) {
            int c = b & 0xFF;
            switch (c) {
                case '\r' -> sb.append("\\r");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\\' -> sb.append("\\\\");
                default -> sb.append(c < 0x20 || c >= 0x7F ? String.format("\\x%02x", c) : String.valueOf((char) c));
            }
        }
        return sb.toString();
    }

    /** One parse of one input, as lines in the node script's format. */
    private static final class Case {
        final String name;
        final byte[] input;
        final List<String> messages = new ArrayList<>();
        boolean rejected;
        String reason = "";

        Case(String name, byte[] input) {
            this.name = name;
            this.input = input;
        }

        static List<Case> parseAll(List<String> lines) {
            List<Case> cases = new ArrayList<>();
            Case current = null;
            for (String line : lines) {
                if (line.startsWith("case ")) {
                    String[] parts = line.split(" ", 3);
                    current = new Case(parts[1], Base64.getDecoder().decode(parts.length > 2 ? parts[2] : ""));
                    cases.add(current);
                } else if (line.startsWith("verdict ")) {
                    current.rejected = line.startsWith("verdict reject");
                    current.reason = current.rejected ? line.substring("verdict reject ".length()) : "";
                } else if (!line.isEmpty()) {
                    current.messages.add(line);
                }
            }
            return cases;
        }

        static Case ours(String name, byte[] input) {
            Case c = new Case(name, input);
            HttpParser parser = HttpParser.forRequests(HttpLimits.defaults(), new HttpMessageListener() {
                final java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();

                @Override
                public boolean onRequestHead(HttpRequest head) {
                    c.messages.add("msg " + head.method() + " " + b64(head.target()) + " "
                            + head.version().text().substring(5) + " 0");
                    for (int i = 0; i < head.headers().size(); i++) {
                        c.messages.add("hdr " + b64(head.headers().name(i)) + " " + b64(head.headers().value(i)));
                    }
                    body.reset();
                    return true;
                }

                @Override
                public boolean onBody(ByteBuffer chunk) {
                    byte[] b = new byte[chunk.remaining()];
                    chunk.get(b);
                    body.writeBytes(b);
                    return true;
                }

                @Override
                public boolean onMessageComplete(HttpHeaders trailers) {
                    c.messages.add("body " + Base64.getEncoder().encodeToString(body.toByteArray()));
                    for (int i = 0; i < trailers.size(); i++) {
                        c.messages.add("trl " + b64(trailers.name(i)) + " " + b64(trailers.value(i)));
                    }
                    c.messages.add("end");
                    return true;
                }
            });
            try {
                parser.feed(ByteBuffer.wrap(input));
                parser.feedEof();
            } catch (HttpParseException e) {
                c.rejected = true;
                c.reason = e.status() + " " + e.reason();
            }
            return c;
        }

        private static String b64(String s) {
            return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.ISO_8859_1));
        }
    }
}

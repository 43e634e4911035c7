package io.jasyncio.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpParserTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static List<String> requests(String input) {
        return MessageRecorder.parseRequests(bytes(input), HttpLimits.defaults());
    }

    private static String last(List<String> events) {
        return events.getLast();
    }

    static Stream<String> wellFormed() {
        return Stream.of(
                "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
                "GET /x?y=1 HTTP/1.1\r\nHost: a\r\nAccept: */*\r\nX-Empty:\r\nX-Pad:  \t v \t \r\n\r\n"
                        + "HEAD /h HTTP/1.1\r\nhost: a\r\n\r\n",
                "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
                        + "PUT /q HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "3;a=b;c=\"q\\\"d\"\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nX-Sum: 1\r\n\r\n",
                "\r\nGET / HTTP/1.0\r\n\r\n",
                "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
                "GET http://a/b HTTP/1.1\r\nHost: a\r\nX-Latin: caf\u00e9\r\n\r\n");
    }

    @ParameterizedTest
    @MethodSource("wellFormed")
    void everySplitPointParsesAlike(String input) {
        byte[] in = bytes(input);
        List<String> whole = MessageRecorder.parseRequests(in, HttpLimits.defaults());
        assertFalse(last(whole).startsWith("refused"), whole::toString);
        for (int cut = 1; cut < in.length; cut++) {
            assertEquals(whole, MessageRecorder.parseRequests(in, HttpLimits.defaults(), cut), "cut at " + cut);
        }
        int[] everyByte = new int[in.length - 1];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = i + 1;
        }
        assertEquals(whole, MessageRecorder.parseRequests(in, HttpLimits.defaults(), everyByte), "byte by byte");
    }

    @Test
    void everySplitPointParsesResponsesAlike() {
        byte[] in = bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
                + "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nde\r\n0\r\nT: 1\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.0 200 OK\r\n\r\nto the end");
        List<String> whole = MessageRecorder.parseResponses(in, "GET");
        assertEquals(List.of("response HTTP/1.1 100 [Continue] {}", "body []", "end {}",
                "response HTTP/1.1 200 [OK] {Content-Length: 3}", "body [abc]", "end {}",
                "response HTTP/1.1 201 [Created] {Transfer-Encoding: chunked}", "body [de]", "end {T: 1}",
                "response HTTP/1.1 204 [No Content] {}", "body []", "end {}",
                "response HTTP/1.0 200 [OK] {}", "body [to the end]", "end {}"), whole);
        for (int cut = 1; cut < in.length; cut++) {
            assertEquals(whole, MessageRecorder.parseResponses(in, "GET", cut), "cut at " + cut);
        }
    }

    @Test
    void parsesFieldsMethodTargetAndBodies() {
        List<String> events = requests("POST /p?q HTTP/1.1\r\nHost: a\r\nX-Pad:  v w \t\r\nContent-Length: 2\r\n\r\nhi"
                + "PUT / HTTP/1.1\r\nHost: b\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\nT: 1\r\n\r\n");
        assertEquals(List.of(
                "request POST /p?q HTTP/1.1 {Host: a, X-Pad: v w, Content-Length: 2}", "body [hi]", "end {}",
                "request PUT / HTTP/1.1 {Host: b, Transfer-Encoding: chunked}", "body [ab]", "end {T: 1}"), events);
    }

    static Stream<Arguments> refused() {
        String h = "Host: a\r\n";
        return Stream.of(
                // smuggling: framing two parsers could read differently
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "both Transfer-Encoding and Content-Length"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400, "more than one Content-Length"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Content-Length: 1, 1\r\n\r\na", 400, "Content-Length is 1*DIGIT"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Content-Length: +1\r\n\r\na", 400, "Content-Length is 1*DIGIT"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Content-Length: 99999999999999999999\r\n\r\n", 413, "too large"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked, identity\r\n\r\n", 400, "chunked must be the final"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: identity\r\n\r\n", 400, "final transfer coding must be chunked"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501, "not implemented"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "chunked must be the final"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: xchunked\r\n\r\n", 400, "final transfer coding must be chunked"),
                Arguments.of("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "HTTP/1.0"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n-1\r\n", 400, "1*HEXDIG"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n0x1\r\n", 400, "chunk size is 1*HEXDIG, then"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n1;\r\n", 400, "name must be a token"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n1;a=\"b\r\n", 400, "unterminated quoted-string"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n1;a=\u0001\r\n", 400, "token or a quoted-string"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", 400, "chunk data must end in CRLF"),
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n11111111111111111\r\n", 400, "chunk size too large"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "X: a\r\n b\r\n\r\n", 400, "obs-fold"),
                Arguments.of("GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400, "obs-fold"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "X: a\rb\r\n\r\n", 400, "bare CR"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "X: a\nY: b\r\n\r\n", 400, "bare LF"),
                Arguments.of("GET / HTTP/1.1\n" + h + "\r\n", 400, "bare LF"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "Content-Length : 0\r\n\r\n", 400, "whitespace between a field name and its colon"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "X\t: 0\r\n\r\n", 400, "whitespace between a field name and its colon"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "X: a\u0000b\r\n\r\n", 400, "control character in a field value"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "X(: a\r\n\r\n", 400, "field name must be a token"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + ": a\r\n\r\n", 400, "field line is"),
                Arguments.of("GET / HTTP/1.1\r\n" + h + "NoColon\r\n\r\n", 400, "field line is"),
                // request lines
                Arguments.of("GET / HTTP/1.1\r\n\r\n", 400, "without Host"),
                Arguments.of("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "more than one Host"),
                Arguments.of("GET  / HTTP/1.1\r\n" + h + "\r\n", 400, "request line is"),
                Arguments.of("GET /a b HTTP/1.1\r\n" + h + "\r\n", 400, "HTTP-version is"),
                Arguments.of("GET /\u00e9 HTTP/1.1\r\n" + h + "\r\n", 400, "visible ASCII"),
                Arguments.of("G(T / HTTP/1.1\r\n" + h + "\r\n", 400, "method must be a token"),
                Arguments.of("BREW / HTTP/1.1\r\n" + h + "\r\n", 501, "method not implemented"),
                Arguments.of("CONNECT /a HTTP/1.1\r\n" + h + "\r\n", 400, "CONNECT's request-target is host:port"),
                Arguments.of("CONNECT a:b HTTP/1.1\r\n" + h + "\r\n", 400, "CONNECT's request-target is host:port"),
                Arguments.of("CONNECT a:443 HTTP/1.1\r\n" + h + "Content-Length: 0\r\n\r\n", 400, "CONNECT request has no content"),
                Arguments.of("GET / HTTP/2.0\r\n" + h + "\r\n", 505, "not supported"),
                Arguments.of("GET / HTTP/1.1 \r\n" + h + "\r\n", 400, "HTTP-version is"),
                Arguments.of("GET / http/1.1\r\n" + h + "\r\n", 400, "HTTP-version is"),
                Arguments.of("GET /\r\n" + h + "\r\n", 400, "request line is"),
                // an incomplete message at EOF
                Arguments.of("POST / HTTP/1.1\r\n" + h + "Content-Length: 5\r\n\r\nab", 400, "closed in the middle"),
                Arguments.of("GET / HTTP/1.1\r\nHo", 400, "closed in the middle"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusesWithTheStatusAndReason(String input, int status, String reason) {
        byte[] in = bytes(input);
        String refusal = last(MessageRecorder.parseRequests(in, HttpLimits.defaults()));
        assertTrue(refusal.startsWith("refused " + status + " ") && refusal.contains(reason), refusal);
        for (int cut = 1; cut < in.length; cut++) {
            assertEquals(refusal, last(MessageRecorder.parseRequests(in, HttpLimits.defaults(), cut)), "cut at " + cut);
        }
    }

    @Test
    void limitsAnswerWithTheirStatus() {
        HttpLimits small = HttpLimits.defaults().withMaxStartLineLength(32).withMaxHeaderBytes(64)
                .withMaxHeaderCount(3).withMaxBodySize(4);
        String h = "Host: a\r\n";
        assertEquals("refused 414 the request line longer than 32 bytes",
                last(MessageRecorder.parseRequests(bytes("GET /" + "a".repeat(40) + " HTTP/1.1\r\n"), small)));
        // exactly at the limit passes
        assertEquals("end {}", last(MessageRecorder.parseRequests(bytes("GET /" + "a".repeat(18) + " HTTP/1.1\r\n" + h + "\r\n"), small)));
        assertTrue(last(MessageRecorder.parseRequests(bytes("GET / HTTP/1.1\r\n" + h + "X: " + "v".repeat(60) + "\r\n\r\n"), small))
                .startsWith("refused 431 the header fields longer than"));
        assertEquals("refused 431 more than 3 fields in the header fields",
                last(MessageRecorder.parseRequests(bytes("GET / HTTP/1.1\r\n" + h + "A: 1\r\nB: 2\r\nC: 3\r\n\r\n"), small)));
        assertEquals("refused 413 a body of 5 bytes, over the limit of 4",
                last(MessageRecorder.parseRequests(bytes("POST / HTTP/1.1\r\n" + h + "Content-Length: 5\r\n\r\n"), small)));
        assertEquals("refused 413 a body over the limit of 4 bytes", last(MessageRecorder.parseRequests(
                bytes("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\n"), small)));
        assertEquals("refused 400 a chunk-size line longer than 1024 bytes", last(MessageRecorder.parseRequests(
                bytes("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n1;a=" + "b".repeat(1100) + "\r\n"), HttpLimits.defaults())));
    }

    @Test
    void responsesFrameTheirBodiesByStatusMethodAndFields() {
        assertEquals(List.of("response HTTP/1.1 200 [OK] {Content-Length: 2}", "body [ab]", "end {}",
                        "response HTTP/1.1 204 [No Content] {}", "body []", "end {}"),
                MessageRecorder.parseResponses(bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab"
                        + "HTTP/1.1 204 No Content\r\n\r\n"), "GET"));
        assertEquals(List.of("response HTTP/1.1 200 [OK] {Content-Length: 5}", "body []", "end {}"),
                MessageRecorder.parseResponses(bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"), "HEAD"));
        assertEquals(List.of("response HTTP/1.0 200 [] {}", "body [until close]", "end {}"),
                MessageRecorder.parseResponses(bytes("HTTP/1.0 200\r\n\r\nuntil close"), "GET"));
        assertEquals(List.of("response HTTP/1.1 100 [Continue] {}", "body []", "end {}",
                        "response HTTP/1.1 200 [OK] {Transfer-Encoding: chunked}", "body [abc]", "end {X: y}"),
                MessageRecorder.parseResponses(bytes("HTTP/1.1 100 Continue\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX: y\r\n\r\n"), "GET"));
        assertEquals(List.of("response HTTP/1.1 304 [Not Modified] {Content-Length: 9}", "body []", "end {}"),
                MessageRecorder.parseResponses(bytes("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"), "GET"));
        assertEquals("refused 400 both Transfer-Encoding and Content-Length (RFC 9112 §6.1, §6.3)",
                last(MessageRecorder.parseResponses(bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n"), "GET")));
        // a final coding other than chunked: read until close (RFC 9112 §6.3 ¶4)
        assertEquals(List.of("response HTTP/1.1 200 [OK] {Transfer-Encoding: gzip}", "body [zz]", "end {}"),
                MessageRecorder.parseResponses(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz"), "GET"));
    }

    @Test
    void aListenerPausesTheParserAfterAnEvent() throws HttpParseException {
        List<String> seen = new java.util.ArrayList<>();
        HttpParser parser = HttpParser.forRequests(HttpLimits.defaults(), new HttpMessageListener() {
            @Override
            public boolean onRequestHead(HttpRequest head) {
                seen.add(head.target());
                return true;
            }

            @Override
            public boolean onMessageComplete(HttpHeaders trailers) {
                seen.add("end");
                return false;
            }
        });
        ByteBuffer two = ByteBuffer.wrap(bytes("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"));
        parser.feed(two);
        assertEquals(List.of("/1", "end"), seen);
        assertEquals(28, two.position());
        parser.feed(two);
        assertEquals(List.of("/1", "end", "/2", "end"), seen);
        assertFalse(two.hasRemaining());
    }

    @Test
    void aRepeatedTargetOrFieldIsTheSameStringAndAChangedOneIsNew() throws HttpParseException {
        List<HttpRequest> heads = new java.util.ArrayList<>();
        HttpParser parser = HttpParser.forRequests(HttpLimits.defaults(), new HttpMessageListener() {
            @Override
            public boolean onRequestHead(HttpRequest head) {
                heads.add(head);
                return true;
            }

            @Override
            public boolean onMessageComplete(HttpHeaders trailers) {
                return true;
            }
        });
        parser.feed(ByteBuffer.wrap(bytes("GET /a HTTP/1.1\r\nHost: h\r\nX-Id: 1\r\nX-Odd: v\r\n\r\n"
                + "GET /a HTTP/1.1\r\nHost: h\r\nX-Id: 2\r\nX-Odd: v\r\n\r\n"
                + "GET /b HTTP/1.1\r\nHost: h\r\nX-Odd: v\r\nX-Id: 2\r\n\r\n")));
        HttpRequest first = heads.get(0), second = heads.get(1), third = heads.get(2);
        assertEquals(List.of("/a", "/a", "/b"), heads.stream().map(HttpRequest::target).toList());
        assertEquals(List.of("1", "2", "2"), heads.stream().map(r -> r.header("X-Id")).toList());
        assertEquals(List.of("v", "v", "v"), heads.stream().map(r -> r.header("X-Odd")).toList());
        org.junit.jupiter.api.Assertions.assertSame(first.target(), second.target(), "the same path again: the same String");
        org.junit.jupiter.api.Assertions.assertSame(first.header("Host"), second.header("Host"));
        org.junit.jupiter.api.Assertions.assertSame(first.headers().name(2), second.headers().name(2), "an unknown name too");
        assertEquals("X-Odd", third.headers().name(1), "a field in another place is itself");
    }
}

package io.jasyncio.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A listener that writes every event down as a line, to compare parses of one input fed differently. */
final class MessageRecorder implements HttpMessageListener {
    final List<String> events = new ArrayList<>();
    private final StringBuilder body = new StringBuilder();

    @Override
    public boolean onRequestHead(HttpRequest head) {
        events.add("request " + head.method() + " " + head.target() + " " + head.version() + " " + head.headers());
        return true;
    }

    @Override
    public boolean onResponseHead(HttpResponse head) {
        events.add("response " + head.version() + " " + head.status() + " [" + head.reason() + "] " + head.headers());
        return true;
    }

    @Override
    public boolean onBody(ByteBuffer chunk) {
        byte[] bytes = new byte[chunk.remaining()];
        chunk.get(bytes);
        body.append(new String(bytes, StandardCharsets.ISO_8859_1));
        return true;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        events.add("body [" + body + "]");
        events.add("end " + trailers);
        body.setLength(0);
        return true;
    }

    /** Parses {@code input} as requests in pieces cut at {@code cuts} (ascending offsets); the events, then the refusal if any. */
    static List<String> parseRequests(byte[] input, HttpLimits limits, int... cuts) {
        MessageRecorder recorder = new MessageRecorder();
        HttpParser parser = HttpParser.forRequests(limits, recorder);
        feedInPieces(parser, recorder, input, cuts);
        return recorder.events;
    }

    static List<String> parseResponses(byte[] input, String requestMethod, int... cuts) {
        MessageRecorder recorder = new MessageRecorder();
        HttpParser parser = HttpParser.forResponses(HttpLimits.defaults(), recorder);
        parser.respondingTo(requestMethod);
        feedInPieces(parser, recorder, input, cuts);
        return recorder.events;
    }

    private static void feedInPieces(HttpParser parser, MessageRecorder recorder, byte[] input, int[] cuts) {
        try {
            int from = 0;
            for (int cut : cuts) {
                feed(parser, input, from, cut);
                from = cut;
            }
            feed(parser, input, from, input.length);
            parser.feedEof();
        } catch (HttpParseException e) {
            recorder.events.add("refused " + e.status() + " " + e.reason());
        }
    }

    /** Feeds a fresh direct buffer (so nothing outside the piece can be read), all of it. */
    private static void feed(HttpParser parser, byte[] input, int from, int to) throws HttpParseException {
        ByteBuffer piece = ByteBuffer.allocateDirect(to - from).put(input, from, to - from).flip();
        parser.feed(piece);
        if (piece.hasRemaining() && !parser.isUpgraded()) {
            throw new AssertionError("the parser left bytes unparsed without pausing");
        }
    }
}

package io.jasyncio.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental HTTP/1.1 parser (RFC 9112) of request or response messages: fed buffers as they
 * arrive, split anywhere, it reports heads, body pieces and ends to its
 * {@link HttpMessageListener}. Body bytes are handed on as views of the fed buffer (never
 * copied); only the lines of a head are gathered, up to the limits.
 *
 * <p>Strict where laxness lets two parsers read one byte stream differently (request smuggling):
 * lines end in CRLF only (a bare CR or LF is refused), no obs-fold, no whitespace before a field's
 * colon, no {@code Content-Length} beside {@code Transfer-Encoding}, no repeated
 * {@code Content-Length}, a request's transfer coding must be a final {@code chunked}, chunk sizes
 * and extensions must match the grammar. Each refusal is an {@link HttpParseException} with the
 * status to answer; the parser then refuses everything after it.
 *
 * <p>Not thread-safe: one connection's parser, fed on its loop.
 */
public final class HttpParser {
    private enum State {
        START_LINE, HEADER_LINE, BODY_FIXED, CHUNK_SIZE_LINE, CHUNK_DATA, CHUNK_DATA_CR, CHUNK_DATA_LF,
        TRAILER_LINE, BODY_UNTIL_CLOSE, UPGRADED
    }

    private final boolean parsesRequests;
    private final HttpLimits limits;
    private final HttpMessageListener listener;
    /**
     * The last message's request-target and field names and values, by position: a keep-alive
     * client repeats most of them (Host, User-Agent, Accept, the path), and a repeated one is
     * the same String again, not a new one (Strings are immutable: nothing else differs).
     */
    private static final int RECENT_FIELDS = 16;
    private final String[] recentTarget = new String[1];
    private final String[] recentNames = new String[RECENT_FIELDS];
    private final String[] recentValues = new String[RECENT_FIELDS];

    private State state = State.START_LINE;
    private HttpParseException failure;
    private boolean paused;

    /** The line being gathered, without its CRLF; a CR seen last waits for its LF. */
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean lineEndsInCr;

    // the message being parsed
    private boolean inMessage;
    private String method;
    private String target;
    private HttpVersion version;
    private int status;
    private String reason;
    private HttpHeaders headers;
    private HttpHeaders trailers;
    private int headerBytes;
    private long contentLength;
    private boolean chunked;
    private String transferEncoding;
    private int hostFields;
    private long bodyRemaining;
    private long bodyReceived;
    private String responseToMethod = "GET";

    private HttpParser(boolean parsesRequests, HttpLimits limits, HttpMessageListener listener) {
        this.parsesRequests = parsesRequests;
        this.limits = limits;
        this.listener = listener;
    }

    /** A server's parser: requests, one after the other (pipelined or not). */
    public static HttpParser forRequests(HttpLimits limits, HttpMessageListener listener) {
        return new HttpParser(true, limits, listener);
    }

    /** A client's parser: responses; tell it which method each answers ({@link #respondingTo}). */
    public static HttpParser forResponses(HttpLimits limits, HttpMessageListener listener) {
        return new HttpParser(false, limits, listener);
    }

    /**
     * The method of the request the next response answers (default GET): a response to HEAD has
     * no body whatever its head says (RFC 9112 §6.3). Set before the response's head is fed.
     */
    public void respondingTo(String requestMethod) {
        this.responseToMethod = requestMethod;
    }

    /**
     * Parses what {@code data} holds from its position, advancing it: to its limit, or to just
     * after the event whose callback returned false. Throws the refusal of a bad message (and
     * again on every later call).
     */
    public void feed(ByteBuffer data) throws HttpParseException {
        if (failure != null) {
            throw failure;
        }
        paused = false;
        try {
            while (!paused && data.hasRemaining()) {
                switch (state) {
                    case START_LINE -> startLine(data);
                    case HEADER_LINE -> headerLine(data, false);
                    case BODY_FIXED -> fixedBody(data);
                    case CHUNK_SIZE_LINE -> chunkSizeLine(data);
                    case CHUNK_DATA -> chunkData(data);
                    case CHUNK_DATA_CR -> chunkDataEnd(data, '\r', State.CHUNK_DATA_LF);
                    case CHUNK_DATA_LF -> chunkDataEnd(data, '\n', State.CHUNK_SIZE_LINE);
                    case TRAILER_LINE -> headerLine(data, true);
                    case BODY_UNTIL_CLOSE -> untilCloseBody(data);
                    case UPGRADED -> {
                        return; // the bytes after a 101 are another protocol's
                    }
                }
            }
        } catch (HttpParseException e) {
            failure = e;
            throw e;
        }
    }

    /**
     * The peer closed. Ends a body read until close; between messages, nothing happens; in the
     * middle of one, the message is refused as incomplete.
     */
    public void feedEof() throws HttpParseException {
        if (failure != null) {
            throw failure;
        }
        if (state == State.BODY_UNTIL_CLOSE) {
            completeMessage(HttpHeaders.empty());
            return;
        }
        if (inMessage || lineLength > 0 || lineEndsInCr) {
            throw failure = new HttpParseException(400, "the connection closed in the middle of a message");
        }
    }

    /** Whether a message has begun (a byte of its start line came) and not ended. */
    public boolean inMessage() {
        return inMessage || lineLength > 0;
    }

    /** Whether the parser is past a 101 (Switching Protocols) and takes no more bytes. */
    public boolean isUpgraded() {
        return state == State.UPGRADED;
    }

    /** The failure that stopped this parser, or null. */
    public HttpParseException failure() {
        return failure;
    }

    /** The current message's Content-Length, or -1 (none, or chunked); valid from its head on. */
    public long contentLength() {
        return contentLength;
    }

    /** Whether the current message's body is chunked; valid from its head on. */
    public boolean isChunked() {
        return chunked;
    }

    /** Whether the current response's body ends only when the connection closes. */
    public boolean readsUntilClose() {
        return state == State.BODY_UNTIL_CLOSE;
    }

    // ---- lines ---------------------------------------------------------------------------------

    /**
     * Gathers bytes up to CRLF into {@link #line}; true once a whole line is there (consumed with
     * its CRLF). Past {@code max} bytes the message is refused with {@code status}.
     */
    private boolean readLine(ByteBuffer data, int max, int status, String what) throws HttpParseException {
        return readLine(data, max, max, status, what);
    }

    /** As {@link #readLine(ByteBuffer, int, int, String)}, the refusal naming {@code statedLimit} (the limit of all the lines, not the room left). */
    private boolean readLine(ByteBuffer data, int max, int statedLimit, int status, String what) throws HttpParseException {
        int pos = data.position();
        int limit = data.limit();
        if (lineEndsInCr) {
            if (data.get(pos) != '\n') {
                throw new HttpParseException(400, "a bare CR in " + what);
            }
            lineEndsInCr = false;
            data.position(pos + 1);
            return true;
        }
        int i = pos;
        while (i < limit) {
            byte b = data.get(i);
            if (b == '\r' || b == '\n') {
                break;
            }
            i++;
        }
        append(data, pos, i - pos, max, statedLimit, status, what);
        if (i == limit) {
            data.position(limit);
            return false;
        }
        if (data.get(i) == '\n') {
            throw new HttpParseException(400, "a bare LF in " + what + " (lines end in CRLF)");
        }
        if (i + 1 == limit) {
            lineEndsInCr = true;
            data.position(limit);
            return false;
        }
        if (data.get(i + 1) != '\n') {
            throw new HttpParseException(400, "a bare CR in " + what);
        }
        data.position(i + 2);
        return true;
    }

    private void append(ByteBuffer data, int from, int n, int max, int statedLimit, int status, String what)
            throws HttpParseException {
        if (lineLength + n > max) {
            throw new HttpParseException(status, what + " longer than " + statedLimit + " bytes");
        }
        if (lineLength + n > line.length) {
            line = Arrays.copyOf(line, Math.min(Math.max(line.length * 2, lineLength + n), Math.max(max, 256)));
        }
        data.get(from, line, lineLength, n);
        lineLength += n;
    }

    // ---- start line ----------------------------------------------------------------------------

    private void startLine(ByteBuffer data) throws HttpParseException {
        String what = parsesRequests ? "the request line" : "the status line";
        int status = parsesRequests ? 414 : 400;
        if (!readLine(data, limits.maxStartLineLength(), status, what)) {
            return;
        }
        int n = lineLength;
        lineLength = 0;
        if (n == 0) {
            return; // an empty line before a request line is ignored (RFC 9112 §2.2)
        }
        inMessage = true;
        headers = new HttpHeaders();
        headerBytes = 0;
        contentLength = -1;
        chunked = false;
        transferEncoding = null;
        hostFields = 0;
        bodyReceived = 0;
        if (parsesRequests) {
            requestLine(n);
        } else {
            statusLine(n);
        }
        state = State.HEADER_LINE;
    }

    private void requestLine(int n) throws HttpParseException {
        byte[] l = line;
        int i = 0;
        while (i < n && l[i] != ' ') {
            if (!HttpSyntax.isTchar(l[i])) {
                throw new HttpParseException(400, "a method must be a token (RFC 9112 §3.1)");
            }
            i++;
        }
        if (i == 0 || i == n) {
            throw new HttpParseException(400, "a request line is method SP request-target SP HTTP-version (RFC 9112 §3)");
        }
        String m = KnownNames.method(l, 0, i);
        if (m == null) {
            throw new HttpParseException(501, "method not implemented: "
                    + new String(l, 0, i, StandardCharsets.ISO_8859_1) + " (RFC 9110 §9.1)");
        }
        int targetStart = i + 1;
        int j = targetStart;
        while (j < n && l[j] != ' ') {
            if (!HttpSyntax.isTargetChar(l[j])) {
                throw new HttpParseException(400, "a request-target has only visible ASCII characters (RFC 9112 §3.2)");
            }
            j++;
        }
        if (j == targetStart || j == n || l[j + 1] == ' ') {
            throw new HttpParseException(400, "a request line is method SP request-target SP HTTP-version (RFC 9112 §3)");
        }
        checkTargetForm(m, l, targetStart, j);
        method = m;
        target = recent(recentTarget, 0, l, targetStart, j);
        version = version(l, j + 1, n - j - 1);
    }

    /**
     * origin-form ({@code /...}), absolute-form ({@code scheme://...}, a scheme of letters as
     * llhttp takes it) or asterisk-form ({@code *}, for OPTIONS only): RFC 9112 §3.2; CONNECT's is
     * authority-form only ({@code host:port}, §3.2.3).
     */
    private static void checkTargetForm(String method, byte[] l, int from, int to) throws HttpParseException {
        if (method.equals("CONNECT")) {
            checkAuthorityForm(l, from, to);
            return;
        }
        if (l[from] == '/') {
            return;
        }
        if (to - from == 1 && l[from] == '*') {
            if (!method.equals("OPTIONS")) {
                throw new HttpParseException(400, "the asterisk-form is for OPTIONS only (RFC 9112 §3.2.4)");
            }
            return;
        }
        int i = from;
        while (i < to && ((l[i] | 0x20) >= 'a' && (l[i] | 0x20) <= 'z')) {
            i++;
        }
        if (i == from || to - i < 3 || l[i] != ':' || l[i + 1] != '/' || l[i + 2] != '/') {
            throw new HttpParseException(400, "a request-target is origin-form (/path), absolute-form (scheme://...) "
                    + "or * (RFC 9112 §3.2)");
        }
        for (i += 3; i < to && l[i] != '/' && l[i] != '?'; i++) {
            if (!HttpSyntax.isAuthorityChar(l[i])) {
                throw new HttpParseException(400, "a character the authority cannot hold (RFC 3986 §3.2)");
            }
        }
    }

    /** {@code host:port}, a port of 1 to 5 digits (RFC 9112 §3.2.3, RFC 3986 §3.2). */
    private static void checkAuthorityForm(byte[] l, int from, int to) throws HttpParseException {
        int colon = to - 1;
        while (colon > from && l[colon] >= '0' && l[colon] <= '9') {
            colon--;
        }
        boolean ok = colon > from && l[colon] == ':' && to - colon >= 2 && to - colon <= 6;
        for (int i = from; ok && i < colon; i++) {
            ok = HttpSyntax.isAuthorityChar(l[i]) && l[i] != '@';
        }
        if (!ok) {
            throw new HttpParseException(400, "CONNECT's request-target is host:port (RFC 9112 §3.2.3)");
        }
    }

    /** The text of {@code l[from, to)}: {@code cache[index]} again if it holds the same, else a new String kept there. */
    private static String recent(String[] cache, int index, byte[] l, int from, int to) {
        if (index >= cache.length) {
            return new String(l, from, to - from, StandardCharsets.ISO_8859_1);
        }
        String last = cache[index];
        if (last != null && last.length() == to - from) {
            int i = 0;
            while (i < last.length() && last.charAt(i) == (l[from + i] & 0xff)) {
                i++;
            }
            if (i == last.length()) {
                return last;
            }
        }
        return cache[index] = new String(l, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private void statusLine(int n) throws HttpParseException {
        byte[] l = line;
        if (n < 12 || l[8] != ' ') {
            throw new HttpParseException(400, "a status line is HTTP-version SP status-code SP [reason-phrase] (RFC 9112 §4)");
        }
        version = version(l, 0, 8);
        int code = 0;
        for (int i = 9; i < 12; i++) {
            if (l[i] < '0' || l[i] > '9') {
                throw new HttpParseException(400, "a status code has three digits (RFC 9112 §4)");
            }
            code = code * 10 + (l[i] - '0');
        }
        if (code < 100) {
            throw new HttpParseException(400, "a status code is 100 to 999 (RFC 9110 §15)");
        }
        String phrase = "";
        if (n > 12) {
            if (l[12] != ' ') {
                throw new HttpParseException(400, "a status code is followed by SP (RFC 9112 §4)");
            }
            for (int i = 13; i < n; i++) {
                if (!HttpSyntax.isFieldValueChar(l[i])) {
                    throw new HttpParseException(400, "a control character in the reason phrase (RFC 9112 §4)");
                }
            }
            phrase = new String(l, 13, n - 13, StandardCharsets.ISO_8859_1);
        }
        status = code;
        reason = phrase;
    }

    private static HttpVersion version(byte[] l, int from, int n) throws HttpParseException {
        if (n != 8 || l[from] != 'H' || l[from + 1] != 'T' || l[from + 2] != 'T' || l[from + 3] != 'P'
                || l[from + 4] != '/' || !isDigit(l[from + 5]) || l[from + 6] != '.' || !isDigit(l[from + 7])) {
            throw new HttpParseException(400, "an HTTP-version is HTTP/DIGIT.DIGIT (RFC 9112 §2.3)");
        }
        if (l[from + 5] != '1' || (l[from + 7] != '0' && l[from + 7] != '1')) {
            // no HTTP/1.x client sends a minor version above 1; refusing one is no looser than llhttp
            throw new HttpParseException(505, "HTTP version not supported: " + (char) l[from + 5] + "." + (char) l[from + 7]);
        }
        return l[from + 7] == '0' ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    // ---- header fields -------------------------------------------------------------------------

    private void headerLine(ByteBuffer data, boolean trailer) throws HttpParseException {
        String what = trailer ? "the trailer fields" : "the header fields";
        int room = limits.maxHeaderBytes() - headerBytes - 2;
        if (!readLine(data, Math.max(room, 0), limits.maxHeaderBytes(), 431, what)) {
            return;
        }
        int n = lineLength;
        lineLength = 0;
        headerBytes += n + 2;
        if (n == 0) {
            if (trailer) {
                completeMessage(trailers == null ? HttpHeaders.empty() : trailers);
            } else {
                headComplete();
            }
            return;
        }
        HttpHeaders fields = trailer ? trailers() : headers;
        if (fields.size() == limits.maxHeaderCount()) {
            throw new HttpParseException(431, "more than " + limits.maxHeaderCount() + " fields in " + what);
        }
        byte[] l = line;
        if (l[0] == ' ' || l[0] == '\t') {
            throw new HttpParseException(400, "a line folded onto the one before (obs-fold, RFC 9112 §5.2)");
        }
        int colon = 0;
        while (colon < n && l[colon] != ':') {
            byte b = l[colon];
            if (!HttpSyntax.isTchar(b)) {
                throw new HttpParseException(400, b == ' ' || b == '\t'
                        ? "whitespace between a field name and its colon (RFC 9112 §5.1)"
                        : "a field name must be a token (RFC 9110 §5.1)");
            }
            colon++;
        }
        if (colon == n || colon == 0) {
            throw new HttpParseException(400, "a field line is field-name \":\" OWS field-value OWS (RFC 9112 §5)");
        }
        int start = colon + 1;
        int end = n;
        while (start < end && (l[start] == ' ' || l[start] == '\t')) {
            start++;
        }
        while (end > start && (l[end - 1] == ' ' || l[end - 1] == '\t')) {
            end--;
        }
        for (int i = start; i < end; i++) {
            if (!HttpSyntax.isFieldValueChar(l[i])) {
                throw new HttpParseException(400, "a control character in a field value (RFC 9110 §5.5)");
            }
        }
        int index = fields.size();
        String name = KnownNames.headerName(l, 0, colon);
        if (name == null) {
            name = recent(recentNames, index, l, 0, colon);
        }
        String value = recent(recentValues, index, l, start, end);
        fields.addParsed(name, value);
        if (!trailer) {
            framingField(l, colon, start, end, value);
        }
    }

    private HttpHeaders trailers() {
        if (trailers == null) {
            trailers = new HttpHeaders();
        }
        return trailers;
    }

    /** Notes the fields that frame the message (Content-Length, Transfer-Encoding) and Host. */
    private void framingField(byte[] l, int nameLength, int start, int end, String value) throws HttpParseException {
        if (KnownNames.equalsIgnoreCase(l, 0, nameLength, "content-length")) {
            if (contentLength >= 0) {
                throw new HttpParseException(400, "more than one Content-Length (RFC 9112 §6.3)");
            }
            if (start == end) {
                throw new HttpParseException(400, "an empty Content-Length (RFC 9110 §8.6)");
            }
            long length = 0;
            for (int i = start; i < end; i++) {
                if (!isDigit(l[i])) {
                    throw new HttpParseException(400, "Content-Length is 1*DIGIT (RFC 9110 §8.6): " + value);
                }
                if (length > (Long.MAX_VALUE - 9) / 10) {
                    throw new HttpParseException(parsesRequests ? 413 : 400, "a Content-Length too large: " + value);
                }
                length = length * 10 + (l[i] - '0');
            }
            contentLength = length;
        } else if (KnownNames.equalsIgnoreCase(l, 0, nameLength, "transfer-encoding")) {
            transferEncoding = transferEncoding == null ? value : transferEncoding + "," + value;
        } else if (KnownNames.equalsIgnoreCase(l, 0, nameLength, "host")) {
            hostFields++;
            if (parsesRequests && !HttpSyntax.isHostValue(value)) {
                throw new HttpParseException(400, "an invalid Host value (RFC 9110 §7.2: uri-host [\":\" port])");
            }
        }
    }

    // ---- framing -------------------------------------------------------------------------------

    /** The empty line after the header fields: decides how the body is framed (RFC 9112 §6.3). */
    private void headComplete() throws HttpParseException {
        if (transferEncoding != null) {
            if (contentLength >= 0) {
                throw new HttpParseException(400, "both Transfer-Encoding and Content-Length (RFC 9112 §6.1, §6.3)");
            }
            if (parsesRequests && version == HttpVersion.HTTP_1_0) {
                throw new HttpParseException(400, "Transfer-Encoding in an HTTP/1.0 request (RFC 9112 §6.1)");
            }
            chunked = finalCodingIsChunked(transferEncoding);
        }
        if (parsesRequests) {
            if (version == HttpVersion.HTTP_1_1 && hostFields != 1) {
                throw new HttpParseException(400, hostFields == 0
                        ? "an HTTP/1.1 request without Host (RFC 9112 §3.2)"
                        : "more than one Host (RFC 9112 §3.2)");
            }
            requestBody();
        } else {
            responseBody();
        }
    }

    /**
     * Whether the transfer codings end in chunked; refuses chunked twice or not last in a request
     * (400) and codings other than chunked in a request (501: none is implemented).
     */
    private boolean finalCodingIsChunked(String codings) throws HttpParseException {
        String[] list = codings.split(",");
        int last = list.length - 1;
        while (last >= 0 && list[last].isBlank()) {
            last--; // empty list elements are allowed (RFC 9110 §5.6.1)
        }
        boolean chunkedLast = false;
        for (int i = 0; i <= last; i++) {
            String coding = list[i].strip();
            if (coding.isEmpty()) {
                continue;
            }
            boolean isChunked = coding.equalsIgnoreCase("chunked");
            if (isChunked && i != last) {
                throw new HttpParseException(400, "chunked must be the final transfer coding, once (RFC 9112 §6.1, §7)");
            }
            if (!isChunked && parsesRequests) {
                if (!HttpSyntax.isToken(coding.split(";", 2)[0].strip())) {
                    throw new HttpParseException(400, "a transfer coding must be a token (RFC 9112 §7)");
                }
                if (i == last) {
                    throw new HttpParseException(400, "a request's final transfer coding must be chunked (RFC 9112 §6.3)");
                }
                throw new HttpParseException(501, "transfer coding not implemented: " + coding + " (RFC 9112 §6.1)");
            }
            chunkedLast = isChunked;
        }
        if (last < 0) {
            throw new HttpParseException(400, "an empty Transfer-Encoding (RFC 9112 §6.1)");
        }
        return chunkedLast;
    }

    private void requestBody() throws HttpParseException {
        HttpRequest request = new HttpRequest(method, target, version, headers, null);
        if (method.equals("CONNECT") && (chunked || contentLength >= 0)) {
            // what follows a CONNECT head is the tunnel's, if the server opens one (RFC 9110 §9.3.6)
            throw new HttpParseException(400, "a CONNECT request has no content (RFC 9110 §9.3.6)");
        }
        if (!chunked && contentLength <= 0) {
            state = State.START_LINE; // no body: the head is the whole message
            paused = !listener.onRequestHead(request);
            completeMessage(HttpHeaders.empty());
            return;
        }
        enterBody();
        paused = !listener.onRequestHead(request);
    }

    private void responseBody() throws HttpParseException {
        HttpResponse response = new HttpResponse(status, reason, version, headers, null);
        boolean noBody = HttpStatus.forbidsBody(status) || "HEAD".equals(responseToMethod);
        if (status >= 200) {
            responseToMethod = "GET"; // the next response answers another request
        }
        if (status == 101) {
            state = State.UPGRADED;
            paused = !listener.onResponseHead(response);
            completeMessage(HttpHeaders.empty());
            return;
        }
        if (noBody || (!chunked && contentLength == 0)) {
            state = State.START_LINE;
            paused = !listener.onResponseHead(response);
            completeMessage(HttpHeaders.empty());
            return;
        }
        enterBody();
        paused = !listener.onResponseHead(response);
    }

    /** The state that reads the body: chunked, Content-Length bytes (within the limit), or until close. */
    private void enterBody() throws HttpParseException {
        if (chunked) {
            state = State.CHUNK_SIZE_LINE;
        } else if (contentLength > 0) {
            long maxBody = limits.maxBodySize();
            if (maxBody >= 0 && contentLength > maxBody) {
                throw new HttpParseException(413, "a body of " + contentLength + " bytes, over the limit of " + maxBody);
            }
            bodyRemaining = contentLength;
            state = State.BODY_FIXED;
        } else {
            state = State.BODY_UNTIL_CLOSE; // a response without framing (RFC 9112 §6.3 ¶8)
        }
    }

    private void completeMessage(HttpHeaders trailerFields) throws HttpParseException {
        if (state != State.UPGRADED) {
            state = State.START_LINE;
        }
        inMessage = false;
        headers = null;
        trailers = null;
        paused |= !listener.onMessageComplete(trailerFields);
    }

    // ---- bodies --------------------------------------------------------------------------------

    private void fixedBody(ByteBuffer data) throws HttpParseException {
        int n = (int) Math.min(bodyRemaining, data.remaining());
        bodyRemaining -= n;
        deliver(data, n);
        if (bodyRemaining == 0) {
            completeMessage(HttpHeaders.empty());
        }
    }

    private void untilCloseBody(ByteBuffer data) throws HttpParseException {
        int n = data.remaining();
        countBody(n);
        deliver(data, n);
    }

    private void deliver(ByteBuffer data, int n) throws HttpParseException {
        int pos = data.position();
        ByteBuffer chunk = data.slice(pos, n);
        data.position(pos + n);
        paused = !listener.onBody(chunk);
    }

    private void countBody(long n) throws HttpParseException {
        bodyReceived += n;
        long maxBody = limits.maxBodySize();
        if (maxBody >= 0 && bodyReceived > maxBody) {
            throw new HttpParseException(413, "a body over the limit of " + maxBody + " bytes");
        }
    }

    private void chunkSizeLine(ByteBuffer data) throws HttpParseException {
        if (!readLine(data, limits.maxChunkLineLength(), 400, "a chunk-size line")) {
            return;
        }
        int n = lineLength;
        lineLength = 0;
        byte[] l = line;
        long size = 0;
        int i = 0;
        while (i < n) {
            int digit = HttpSyntax.hexValue(l[i]);
            if (digit < 0) {
                break;
            }
            if (size > (Long.MAX_VALUE >> 4)) {
                throw new HttpParseException(400, "a chunk size too large");
            }
            size = (size << 4) | digit;
            i++;
        }
        if (i == 0) {
            throw new HttpParseException(400, "a chunk size is 1*HEXDIG (RFC 9112 §7.1)");
        }
        chunkExtensions(l, i, n);
        if (size == 0) {
            headerBytes = 0;
            state = State.TRAILER_LINE;
            return;
        }
        countBody(size);
        bodyRemaining = size;
        state = State.CHUNK_DATA;
    }

    /**
     * chunk-ext = *( ";" chunk-ext-name [ "=" chunk-ext-val ] ) (RFC 9112 §7.1.1) without the
     * grammar's bad whitespace (BWS): llhttp refuses it too, so refusing it splits no stream.
     */
    private static void chunkExtensions(byte[] l, int i, int n) throws HttpParseException {
        while (i < n) {
            if (l[i] != ';') {
                throw new HttpParseException(400, "a chunk size is 1*HEXDIG, then extensions after \";\" (RFC 9112 §7.1)");
            }
            int nameStart = ++i;
            while (i < n && HttpSyntax.isTchar(l[i])) {
                i++;
            }
            if (i == nameStart) {
                throw new HttpParseException(400, "a chunk extension's name must be a token (RFC 9112 §7.1.1)");
            }
            if (i < n && l[i] == '=') {
                i = chunkExtensionValue(l, i + 1, n);
            }
        }
    }

    /** A token or a quoted-string; returns the index after it. */
    private static int chunkExtensionValue(byte[] l, int i, int n) throws HttpParseException {
        if (i < n && l[i] == '"') {
            i++;
            while (i < n) {
                byte b = l[i];
                if (b == '"') {
                    return i + 1;
                }
                if (b == '\\') {
                    if (i + 1 == n || !HttpSyntax.isFieldValueChar(l[i + 1])) {
                        throw new HttpParseException(400, "a bad quoted-pair in a chunk extension (RFC 9110 §5.6.4)");
                    }
                    i += 2;
                } else if (HttpSyntax.isFieldValueChar(b)) {
                    i++;
                } else {
                    throw new HttpParseException(400, "a control character in a chunk extension (RFC 9110 §5.6.4)");
                }
            }
            throw new HttpParseException(400, "an unterminated quoted-string in a chunk extension (RFC 9110 §5.6.4)");
        }
        int start = i;
        while (i < n && HttpSyntax.isTchar(l[i])) {
            i++;
        }
        if (i == start) {
            throw new HttpParseException(400, "a chunk extension's value must be a token or a quoted-string (RFC 9112 §7.1.1)");
        }
        return i;
    }

    private void chunkData(ByteBuffer data) throws HttpParseException {
        int n = (int) Math.min(bodyRemaining, data.remaining());
        bodyRemaining -= n;
        if (bodyRemaining == 0) {
            state = State.CHUNK_DATA_CR;
        }
        deliver(data, n);
    }

    private void chunkDataEnd(ByteBuffer data, char expected, State next) throws HttpParseException {
        int pos = data.position();
        if (data.get(pos) != expected) {
            throw new HttpParseException(400, "chunk data must end in CRLF (RFC 9112 §7.1)");
        }
        data.position(pos + 1);
        state = next;
    }
}

package io.jasyncio.http.websocket.codec;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * permessage-deflate as agreed for one connection (RFC 7692 §7.1), from this end's point of view:
 * whether outgoing messages are compressed (not when the peer limited this end's window below 15
 * bits: java.util.zip deflates with a 15-bit window only, and sending uncompressed is always
 * allowed), and whether each direction keeps its context between messages. {@link #header()} is
 * the negotiation response a server sends (or what a client accepted).
 */
public record DeflateAgreement(boolean compressOutgoing, boolean outgoingTakeover, boolean incomingTakeover,
                               String header) {
    public static final String NAME = "permessage-deflate";
    private static final Set<String> PARAMETERS = Set.of("server_no_context_takeover", "client_no_context_takeover",
            "server_max_window_bits", "client_max_window_bits");

    /** A new deflater for outgoing messages, at {@code level}. */
    public MessageDeflater deflater(int level) {
        return new MessageDeflater(outgoingTakeover, level);
    }

    /** A new inflater for incoming messages. */
    public MessageInflater inflater() {
        return new MessageInflater(incomingTakeover);
    }

    /** The offer a client sends: it accepts a window limit and asks for what {@code serverNoTakeover}/{@code clientNoTakeover} say. */
    public static String clientOffer(boolean serverNoTakeover, boolean clientNoTakeover) {
        return NAME + "; client_max_window_bits" + (serverNoTakeover ? "; server_no_context_takeover" : "")
                + (clientNoTakeover ? "; client_no_context_takeover" : "");
    }

    /**
     * A server's choice among the client's offers (the first acceptable permessage-deflate one), or
     * null to decline. {@code serverNoTakeover}/{@code clientNoTakeover}: the server asks for them
     * whatever the offer says.
     */
    public static DeflateAgreement serverAccept(List<ExtensionOffer> offers, boolean serverNoTakeover,
                                                boolean clientNoTakeover) {
        for (ExtensionOffer offer : offers) {
            if (!offer.name().equals(NAME) || offer.malformed() || !PARAMETERS.containsAll(offer.parameters().keySet())) {
                continue;
            }
            Map<String, String> p = offer.parameters();
            if (p.get("server_no_context_takeover") != null || p.get("client_no_context_takeover") != null) {
                continue; // these take no value
            }
            int serverBits = windowBits(p, "server_max_window_bits", false);
            int clientBits = windowBits(p, "client_max_window_bits", true);
            if (serverBits < 0 || clientBits < 0) {
                continue;
            }
            boolean serverNo = serverNoTakeover || p.containsKey("server_no_context_takeover");
            boolean clientNo = clientNoTakeover || p.containsKey("client_no_context_takeover");
            StringBuilder header = new StringBuilder(NAME);
            if (serverNo) {
                header.append("; server_no_context_takeover");
            }
            if (clientNo) {
                header.append("; client_no_context_takeover");
            }
            if (p.containsKey("server_max_window_bits")) {
                header.append("; server_max_window_bits=").append(serverBits);
            }
            return new DeflateAgreement(serverBits == 15, !serverNo, !clientNo, header.toString());
        }
        return null;
    }

    /**
     * A client's reading of the server's response to its {@link #clientOffer}; throws
     * {@link IllegalArgumentException} when the response breaks RFC 7692 (the handshake fails).
     */
    public static DeflateAgreement clientAccept(ExtensionOffer response, boolean askedServerNoTakeover,
                                                boolean askedClientNoTakeover) {
        Map<String, String> p = response.parameters();
        if (!response.name().equals(NAME) || response.malformed() || !PARAMETERS.containsAll(p.keySet())
                || p.get("server_no_context_takeover") != null || p.get("client_no_context_takeover") != null) {
            throw new IllegalArgumentException("a malformed permessage-deflate response: " + p);
        }
        int serverBits = windowBits(p, "server_max_window_bits", false);
        int clientBits = windowBits(p, "client_max_window_bits", false);
        if (serverBits < 0 || clientBits < 0) {
            throw new IllegalArgumentException("an invalid window size in the permessage-deflate response: " + p);
        }
        boolean serverNo = p.containsKey("server_no_context_takeover");
        if (askedServerNoTakeover && !serverNo) {
            throw new IllegalArgumentException("the server ignored server_no_context_takeover");
        }
        boolean clientNo = askedClientNoTakeover || p.containsKey("client_no_context_takeover");
        StringBuilder header = new StringBuilder(NAME);
        p.forEach((name, value) -> header.append("; ").append(name).append(value == null ? "" : "=" + value));
        return new DeflateAgreement(clientBits == 15, !clientNo, !serverNo, header.toString());
    }

    /** The parameter's window bits (8-15), 15 when absent, -1 when invalid; {@code bare}: may come without a value. */
    private static int windowBits(Map<String, String> p, String name, boolean bare) {
        if (!p.containsKey(name)) {
            return 15;
        }
        String v = p.get(name);
        if (v == null) {
            return bare ? 15 : -1;
        }
        if (!v.matches("[0-9]{1,2}")) {
            return -1;
        }
        int bits = Integer.parseInt(v);
        return bits >= 8 && bits <= 15 ? bits : -1;
    }
}

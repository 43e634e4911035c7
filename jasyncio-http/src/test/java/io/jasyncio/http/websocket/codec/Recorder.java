package io.jasyncio.http.websocket.codec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A decoder's events as strings, in order: "text:…", "binary:<n>", "ping:…", "pong:…", "close:<code>:<reason>". */
final class Recorder implements FrameDecoder.Events {
    final List<String> events = new ArrayList<>();
    final List<byte[]> binaries = new ArrayList<>();

    @Override
    public void onText(String text) {
        events.add("text:" + text);
    }

    @Override
    public void onBinary(byte[] data) {
        binaries.add(data);
        events.add("binary:" + data.length);
    }

    @Override
    public void onPing(byte[] payload) {
        events.add("ping:" + new String(payload, StandardCharsets.UTF_8));
    }

    @Override
    public void onPong(byte[] payload) {
        events.add("pong:" + new String(payload, StandardCharsets.UTF_8));
    }

    @Override
    public void onClose(int code, String reason) {
        events.add("close:" + code + ":" + reason);
    }
}

/**
 * WebSocket's wire format free of I/O (RFC 6455, RFC 7692): {@link io.jasyncio.http.websocket.codec.FrameDecoder}
 * turns bytes into messages and control frames, {@link io.jasyncio.http.websocket.codec.FrameEncoder} frames
 * into bytes, with permessage-deflate, UTF-8 validation and the handshake's keys beside them.
 * Internal to the module: {@code io.jasyncio.http.websocket} is the API.
 */
package io.jasyncio.http.websocket.codec;

/**
 * WebSocket (RFC 6455) with permessage-deflate (RFC 7692), server and client, on any loop: a
 * coroutine session ({@link io.jasyncio.http.websocket.WebSocket}) and a callback form
 * ({@link io.jasyncio.http.websocket.WebSocketListener}). A server accepts from a streaming HTTP
 * handler ({@link io.jasyncio.http.websocket.WebSocketServer}); a client connects to a URL
 * ({@link io.jasyncio.http.websocket.WebSocketClient}).
 */
package io.jasyncio.http.websocket;

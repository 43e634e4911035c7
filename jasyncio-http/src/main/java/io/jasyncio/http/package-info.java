/**
 * HTTP/1.1 (RFC 9112) messages and their incremental parser, shared by the server and the client.
 */
package io.jasyncio.http;

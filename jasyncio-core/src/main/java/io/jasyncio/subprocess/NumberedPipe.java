package io.jasyncio.subprocess;

import java.nio.channels.Pipe;

/** A pipe with the descriptor numbers of its read end ({@code source}) and write end ({@code sink}). */
record NumberedPipe(Pipe pipe, int sourceFd, int sinkFd) {
}

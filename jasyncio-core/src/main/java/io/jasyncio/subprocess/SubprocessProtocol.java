package io.jasyncio.subprocess;

import io.jasyncio.net.BaseProtocol;

import java.nio.ByteBuffer;

/**
 * What a child's transport reports (asyncio's {@code SubprocessProtocol}), on the loop thread.
 * {@code connectionLost} (from {@link BaseProtocol}) comes last, once the child has exited and
 * every pipe is closed; pauseWriting/resumeWriting are the stdin pipe's flow control.
 */
public interface SubprocessProtocol extends BaseProtocol {
    /** The child runs; {@code transport} is the way to its pipes, signals and return code. */
    default void connectionMade(SubprocessTransport transport) {
    }

    /**
     * The child wrote to its stdout ({@code fd} 1) or stderr (2): the bytes between
     * {@code data}'s position and limit, in a buffer reused after this call returns.
     */
    default void pipeDataReceived(int fd, ByteBuffer data) {
    }

    /** The pipe for {@code fd} closed: at the end of the data, or with {@code exc} when it failed. */
    default void pipeConnectionLost(int fd, Throwable exc) {
    }

    /** The child exited ({@link SubprocessTransport#getReturncode()} is set). */
    default void processExited() {
    }
}

package io.jasyncio.task;

/** When {@code wait} returns, as asyncio's {@code FIRST_COMPLETED}, {@code FIRST_EXCEPTION}, {@code ALL_COMPLETED}. */
public enum ReturnWhen {
    /** As soon as any future is done (or cancelled). */
    FIRST_COMPLETED,
    /** As soon as any future fails with an exception; when none does, as {@link #ALL_COMPLETED}. */
    FIRST_EXCEPTION,
    /** When every future is done. */
    ALL_COMPLETED
}

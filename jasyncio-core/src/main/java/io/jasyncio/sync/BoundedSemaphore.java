package io.jasyncio.sync;

/**
 * A {@link Semaphore} that refuses to be released more often than it was acquired, as asyncio's
 * {@code BoundedSemaphore}: the count never exceeds its initial value.
 */
public final class BoundedSemaphore extends Semaphore {
    private final int bound;

    /** A bounded semaphore of one slot. */
    public BoundedSemaphore() {
        this(1);
    }

    /** A bounded semaphore of {@code value} slots: releasing more than that throws. */
    public BoundedSemaphore(int value) {
        super(value);
        this.bound = value;
    }

    /**
     * Gives a slot back.
     *
     * @throws IllegalStateException if that would exceed the initial value (asyncio's ValueError)
     */
    @Override
    public void release() {
        if (value >= bound) {
            throw new IllegalStateException("BoundedSemaphore released too many times");
        }
        super.release();
    }
}

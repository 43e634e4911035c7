package io.jasyncio.http.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes one server may hold in request bodies it buffers whole (for {@link HttpHandler}s),
 * summed over all its connections and loops. A body's buffer takes its capacity from here
 * before it grows and gives it back once its exchange ends; a growth the budget cannot cover is
 * refused (the server answers 503). Thread-safe: the loops of an {@link HttpGroupServer} share one.
 */
final class BodyBudget {
    private final long capacity;
    private final AtomicLong used = new AtomicLong();

    BodyBudget(long capacity) {
        this.capacity = capacity;
    }

    /** Takes {@code n} bytes if they fit; false (and nothing taken) if not. */
    boolean tryTake(long n) {
        while (true) {
            long u = used.get();
            if (u + n > capacity) {
                return false;
            }
            if (used.compareAndSet(u, u + n)) {
                return true;
            }
        }
    }

    void giveBack(long n) {
        used.addAndGet(-n);
    }

    long used() {
        return used.get();
    }

    long capacity() {
        return capacity;
    }
}

package io.jasyncio.junit;

import io.jasyncio.net.StreamConnection;

import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;

/**
 * The example of the README: a client that connects with exponential backoff, waiting 1 s after
 * the first refusal, then twice as long each time, at most 10 minutes. It keeps the loop time of
 * every attempt, which is what a test wants to check.
 */
final class BackoffClient {
    static final double FIRST_DELAY = 1;
    static final double MAX_DELAY = 600;

    private final List<Double> attempts = new ArrayList<>();

    /** Connects to {@code host:port}, retrying until it is accepted (bound it with a timeout). */
    StreamConnection connect(String host, int port) throws Exception {
        double delay = FIRST_DELAY;
        while (true) {
            attempts.add(getRunningLoop().time());
            try {
                return openConnection(host, port);
            } catch (ConnectException refused) {
                sleep(delay);
                delay = Math.min(delay * 2, MAX_DELAY);
            }
        }
    }

    /** The loop times of the attempts so far. */
    List<Double> attempts() {
        return List.copyOf(attempts);
    }
}

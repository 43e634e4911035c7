package io.jasyncio.loop;

import io.jasyncio.loop.spi.EventLoopProvider;
import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Futures and tasks hold their loop through {@link LoopContract}: every loop made from a provider
 * implements it (the provider gives a backend, the loop is the library's). An {@link EventLoop}
 * of another kind fails at its first future with a sentence naming the contract, not with a
 * ClassCastException.
 */
@EveryLoop
class LoopContractTest {

    /** An EventLoop with every method unimplemented: all the check may look at is its type. */
    static EventLoop loopWithoutTheContract() {
        return (EventLoop) Proxy.newProxyInstance(EventLoop.class.getClassLoader(), new Class<?>[] {EventLoop.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "toString" -> "<a loop of its own>";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A backend that cannot open (say, the kernel refused the resource it needs). */
    static final class ProviderWhoseBackendCannotOpen implements EventLoopProvider {
        @Override
        public String name() {
            return "refused";
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public LoopBackend openBackend(LoopContract loop) throws IOException {
            throw new IOException("no ring for you");
        }
    }

    @Test
    void aBackendThatCannotOpenFailsTheLoopWithItsReasonAndLeavesNoLoopBehind() {
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> EventLoops.newEventLoop(new ProviderWhoseBackendCannotOpen()));
        assertEquals("cannot open the refused loop's backend", e.getMessage());
        assertEquals("no ring for you", e.getCause().getMessage());
        assertTrue(EventLoops.liveLoops().stream().noneMatch(l -> EventLoops.implementationOf(l.loop()).equals("refused")),
                "a loop that never opened is not listed");
    }

    @Test
    void aFutureOnALoopWithoutTheContractFailsWithTheSameSentence() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Future<String>(loopWithoutTheContract()));
        assertTrue(e.getMessage().contains("futures and tasks need it"), e.getMessage());
    }

    /** An EventLoop that implements the contract but was not made by EventLoops: the contract is what a backend sees, not a loop. */
    static EventLoop loopWithTheContractOnly() {
        return (EventLoop) Proxy.newProxyInstance(EventLoop.class.getClassLoader(),
                new Class<?>[] {EventLoop.class, LoopContract.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "toString" -> "<a contract of its own>";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aFutureOnALoopThatOnlyImplementsTheContractFailsNamingWhereLoopsComeFrom() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Future<String>(loopWithTheContractOnly()));
        assertTrue(e.getMessage().contains("was not made by EventLoops.newEventLoop"), e.getMessage());
    }

    @Test
    void theLoopsOfThisLibraryImplementIt() {
        try (EventLoop loop = EventLoops.newEventLoop("nio")) {
            assertSame(loop, LoopContract.of(loop));
        }
    }
}

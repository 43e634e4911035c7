package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Futures and tasks hold their loop through {@link LoopContract}. An {@link EventLoop} that does
 * not implement it (say, a provider's own class) fails where the loop is made, with a sentence
 * naming the contract, instead of a ClassCastException at its first createFuture.
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

    /** Found by ServiceLoader through the test's context class loader (see the test below). */
    public static final class ProviderOfALoopWithoutTheContract implements EventLoopProvider {
        @Override
        public String name() {
            return "no-contract";
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public EventLoop create() {
            return loopWithoutTheContract();
        }
    }

    @Test
    void aProvidersLoopWithoutTheContractFailsAtCreationWithAClearSentence(@TempDir Path services) throws Exception {
        Path file = services.resolve("META-INF/services/" + EventLoopProvider.class.getName());
        Files.createDirectories(file.getParent());
        Files.writeString(file, ProviderOfALoopWithoutTheContract.class.getName() + "\n");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader withProvider = new URLClassLoader(new URL[] {services.toUri().toURL()}, previous)) {
            thread.setContextClassLoader(withProvider); // ServiceLoader.load looks here
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> EventLoops.newEventLoop("no-contract"));
            assertTrue(e.getMessage().contains("does not implement io.jasyncio.loop.LoopContract"), e.getMessage());
            assertTrue(e.getMessage().contains("<a loop of its own>"), e.getMessage());
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void aFutureOnALoopWithoutTheContractFailsWithTheSameSentence() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Future<String>(loopWithoutTheContract()));
        assertTrue(e.getMessage().contains("futures and tasks need it"), e.getMessage());
    }

    @Test
    void theLoopsOfThisLibraryImplementIt() {
        try (EventLoop loop = EventLoops.newEventLoop("nio")) {
            assertSame(loop, LoopContract.of(loop));
        }
    }
}

package io.jasyncio.loop;

import io.jasyncio.loop.spi.EventLoopProvider;

import org.junit.jupiter.api.Test;

import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The nio backend is a provider like the others: EventLoops names no backend. */
class NioProviderTest {

    @Test
    void nioIsFoundThroughTheServiceLookupAndListedFirst() {
        assertTrue(ServiceLoader.load(EventLoopProvider.class).stream().anyMatch(p -> p.get().name().equals("nio")),
                "core registers its nio provider (META-INF/services and module-info)");
        assertEquals("nio", EventLoops.availableNames().getFirst(), EventLoops.availableNames().toString());
        try (EventLoop loop = EventLoops.newEventLoop("nio")) {
            assertEquals("nio", EventLoops.implementationOf(loop));
        }
    }
}

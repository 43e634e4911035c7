/**
 * A loop backend over poll(2), written as another project would write one: it uses core's SPI
 * ({@code io.jasyncio.loop.spi}) and jasyncio-native's kit ({@code io.jasyncio.nativeio},
 * {@code io.jasyncio.nativeio.linux}) through their ordinary exports, with no qualified export
 * to it anywhere. {@code -Djasyncio.loop=poll} picks it. Reading a channel's fd needs
 * {@code --add-exports java.base/sun.nio.ch=io.jasyncio.core} on the module path.
 */
module io.jasyncio.poll {
    requires io.jasyncio.core;
    requires io.jasyncio.nativeio;

    provides io.jasyncio.loop.spi.EventLoopProvider with io.jasyncio.poll.PollEventLoopProvider;
}

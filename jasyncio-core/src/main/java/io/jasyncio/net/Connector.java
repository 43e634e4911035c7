package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.util.Throwables;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.ExceptionGroup;
import io.jasyncio.task.internal.StaggeredRace;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How a client socket gets connected, as asyncio's {@code create_connection}: the resolved
 * addresses in order (interleaved by family for happy eyeballs), each socket bound to the local
 * address first when one is asked for, one attempt after another or staggered (RFC 8305), and
 * when every address fails, all their errors reported together.
 */
final class Connector {
    private Connector() {
    }

    /** Coroutine: a socket connected to one of {@code addresses}, or every attempt's failure. */
    static SocketChannel connect(EventLoop loop, List<InetSocketAddress> addresses, ConnectOptions options)
            throws IOException {
        if (addresses.isEmpty()) {
            throw new IOException("getaddrinfo() returned empty list");
        }
        List<InetSocketAddress> order = interleave(addresses, options.effectiveInterleave());
        List<InetSocketAddress> locals = options.localAddress() == null ? null : resolveLocal(loop, options.localAddress());
        List<Throwable> failures = new ArrayList<>();
        if (!options.happyEyeballs()) {
            for (InetSocketAddress address : order) {
                try {
                    return connectOne(loop, address, locals);
                } catch (IOException e) {
                    failures.add(e);
                }
            }
        } else {
            List<Coroutine<SocketChannel>> attempts = order.stream()
                    .map(a -> (Coroutine<SocketChannel>) () -> connectOne(loop, a, locals)).toList();
            StaggeredRace.Outcome<SocketChannel> race = StaggeredRace.race(loop, attempts, options.happyEyeballsDelay(),
                    Connector::closeQuietly);
            if (race.won()) {
                return race.winner();
            }
            for (Throwable t : race.exceptions()) {
                if (t != null) {
                    failures.add(t);
                }
            }
        }
        throw combined(failures, options.allErrors());
    }

    /** One attempt: a socket of the address's family, bound to a local address of the same family if asked, then connected. */
    private static SocketChannel connectOne(EventLoop loop, InetSocketAddress address, List<InetSocketAddress> locals)
            throws IOException {
        SocketChannel channel = SocketChannel.open(familyOf(address));
        try {
            channel.configureBlocking(false);
            if (locals != null) {
                bindLocal(channel, address, locals);
            }
            Sockets.sockConnect(loop, channel, address);
            return channel;
        } catch (Throwable t) {
            channel.close(); // a cancelled attempt (happy eyeballs' losers) closes its socket too
            throw t;
        }
    }

    private static void bindLocal(SocketChannel channel, InetSocketAddress remote, List<InetSocketAddress> locals)
            throws IOException {
        IOException last = null;
        for (InetSocketAddress local : locals) {
            if (familyOf(local) != familyOf(remote)) {
                continue; // as asyncio: skip local addresses of another family
            }
            try {
                channel.bind(local);
                return;
            } catch (IOException e) {
                last = new IOException("error while attempting to bind on address " + local + ": "
                        + String.valueOf(e.getMessage()).toLowerCase(), e);
            }
        }
        throw last != null ? last
                : new IOException("no matching local address with family=" + familyOf(remote) + " found");
    }

    private static List<InetSocketAddress> resolveLocal(EventLoop loop, InetSocketAddress local) throws IOException {
        if (!local.isUnresolved()) {
            return List.of(local);
        }
        return Network.resolve(loop, local.getHostString(), local.getPort());
    }

    /**
     * asyncio's {@code _interleave_addrinfos}: addresses grouped by family in order of first
     * appearance, {@code firstFamilyCount} of the first family first, then one of each family in
     * turn. 0 keeps the order as it is.
     */
    static List<InetSocketAddress> interleave(List<InetSocketAddress> addresses, int firstFamilyCount) {
        if (firstFamilyCount == 0) {
            return addresses;
        }
        Map<StandardProtocolFamily, List<InetSocketAddress>> byFamily = new LinkedHashMap<>();
        for (InetSocketAddress a : addresses) {
            byFamily.computeIfAbsent(familyOf(a), f -> new ArrayList<>()).add(a);
        }
        List<List<InetSocketAddress>> lists = new ArrayList<>(byFamily.values());
        List<InetSocketAddress> reordered = new ArrayList<>(addresses.size());
        List<InetSocketAddress> first = lists.getFirst();
        int lead = Math.min(firstFamilyCount - 1, first.size());
        reordered.addAll(first.subList(0, lead));
        lists.set(0, first.subList(lead, first.size()));
        for (int i = 0; reordered.size() < addresses.size(); i++) {
            for (List<InetSocketAddress> list : lists) {
                if (i < list.size()) {
                    reordered.add(list.get(i));
                }
            }
        }
        return reordered;
    }

    /**
     * asyncio's rule: one error raised as it is when it is the only one or all say the same; with
     * {@code allErrors} every error in one group; otherwise one "Multiple exceptions" error. An
     * error that is not an I/O error (a bug, not a refused connection) is raised as it is.
     */
    private static RuntimeException combined(List<Throwable> failures, boolean allErrors) throws IOException {
        for (Throwable t : failures) {
            if (!(t instanceof IOException)) {
                throw Throwables.sneakyThrow(t);
            }
        }
        if (allErrors) {
            throw new ExceptionGroup("create_connection failed", failures);
        }
        String first = String.valueOf(failures.getFirst().getMessage());
        if (failures.stream().allMatch(e -> first.equals(String.valueOf(e.getMessage())))) {
            throw (IOException) failures.getFirst();
        }
        IOException all = new IOException("Multiple exceptions: "
                + failures.stream().map(e -> String.valueOf(e.getMessage())).collect(Collectors.joining(", ")));
        failures.forEach(all::addSuppressed);
        throw all;
    }

    private static StandardProtocolFamily familyOf(InetSocketAddress address) {
        return address.getAddress() instanceof Inet4Address ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // a socket nobody will use: nothing to report
        }
    }
}

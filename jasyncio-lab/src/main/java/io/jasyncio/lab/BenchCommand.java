package io.jasyncio.lab;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/** {@code ./jasyncio bench}: load generators for the side-by-side comparison (bench/compare.sh). */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Load generators for comparing servers (loopback only).",
        subcommands = {BenchCommand.Echo.class, SnapshotCost.class})
final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code ./jasyncio bench echo}: N ping-pong connections against an echo server. */
    @Command(name = "echo", mixinStandardHelpOptions = true,
            description = {
                    "Ping-pong load on an echo server: each connection sends SIZE bytes, reads them all back, repeats.",
                    "Ends with one line: RESULT msgs_per_s=... mib_per_s=... p50_us=... p99_us=... p999_us=... errors=...",
                    "(mib_per_s counts payload one way: bytes echoed back per second)."})
    static final class Echo implements Callable<Integer> {
        @Option(names = "--host", defaultValue = "127.0.0.1", description = "server address, loopback only (default: ${DEFAULT-VALUE})")
        String host;

        @Option(names = "--port", required = true, description = "server port")
        int port;

        @Option(names = "--connections", defaultValue = "10", description = "concurrent connections (default: ${DEFAULT-VALUE})")
        int connections;

        @Option(names = "--size", defaultValue = "1024", description = "message size in bytes (default: ${DEFAULT-VALUE})")
        int size;

        @Option(names = "--duration", defaultValue = "5", description = "measured seconds (default: ${DEFAULT-VALUE})")
        double duration;

        @Option(names = "--warmup", defaultValue = "1", description = "seconds of load before measuring (default: ${DEFAULT-VALUE})")
        double warmup;

        @Option(names = "--server-pid", description = {"Linux: charge the server process PID's CPU time (/proc/PID/stat)",
                "over the measured window; adds server_cpu_s and server_cpu_us_per_msg to the RESULT line"})
        Long serverPid;

        @Override
        public Integer call() throws Exception {
            InetAddress address = InetAddress.getByName(host);
            if (!address.isLoopbackAddress()) {
                System.err.println("bench echo only targets loopback addresses (127.0.0.0/8, ::1), not " + host);
                return 2;
            }
            if (connections < 1 || size < 1 || duration <= 0 || warmup < 0 || duration > 3600 || warmup > 3600) {
                System.err.println("need --connections >= 1, --size >= 1, 0 < --duration <= 3600, 0 <= --warmup <= 3600");
                return 2;
            }
            EchoLoadClient client = new EchoLoadClient(new InetSocketAddress(address, port), connections, size,
                    serverPid == null ? null : new ProcessCpu(serverPid));
            EchoLoadClient.Result r;
            try {
                r = client.run(seconds(warmup), seconds(duration));
            } catch (ConnectException e) {
                System.err.println("cannot connect to " + host + ":" + port + ": " + e.getMessage());
                return 1;
            }
            System.out.println(r.summaryLine());
            return r.messages() > 0 ? 0 : 1;
        }

        private static long seconds(double s) {
            return (long) (s * 1e9);
        }
    }
}

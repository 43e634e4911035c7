package io.jasyncio.examples.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL for the test, started by bench/tfb/postgres.sh in a folder of its own and
 * stopped by {@link #close()}; the script's watchdog stops it too if this JVM dies first.
 */
final class ThrowawayPostgres implements AutoCloseable {
    private static final Path SCRIPT = Path.of(System.getProperty("user.dir")).resolve("../../bench/tfb/postgres.sh").normalize();

    private final Path dir;
    private final Map<String, String> env;

    private ThrowawayPostgres(Path dir, Map<String, String> env) {
        this.dir = dir;
        this.env = env;
    }

    static ThrowawayPostgres start() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("db-service-pg");
        script("start", dir.toString(), "--owner-pid", Long.toString(ProcessHandle.current().pid()));
        Map<String, String> env = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("env"), StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            env.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return new ThrowawayPostgres(dir, env);
    }

    String jdbcUrl() {
        return env.get("JDBC_URL");
    }

    String user() {
        return env.get("PGUSER");
    }

    String password() {
        return env.get("PGPASSWORD");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        script("stop", dir.toString());
    }

    private static void script(String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = SCRIPT.toString();
        System.arraycopy(args, 0, command, 1, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(SCRIPT + " " + String.join(" ", args) + " failed:\n" + new String(output, StandardCharsets.UTF_8));
        }
    }
}

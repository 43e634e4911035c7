package io.jasyncio.subprocess;

import io.jasyncio.net.StreamReader;

import java.nio.file.Path;
import java.util.Map;

/**
 * How a child is started (asyncio's keyword arguments of {@code create_subprocess_exec}): where
 * its stdin, stdout and stderr go (asyncio's default: all inherited), its working directory
 * (null: ours), its whole environment (null: a copy of ours), and the {@link StreamReader} limit
 * of its output streams.
 */
public record SubprocessOptions(Stdio stdin, Stdio stdout, Stdio stderr, Path cwd, Map<String, String> env, int limit) {
    /** Options as given; {@link #defaults()} and the {@code with...} methods are the usual way. */
    public SubprocessOptions {
        if (stdin == Stdio.STDOUT || stdout == Stdio.STDOUT) {
            throw new IllegalArgumentException("only stderr can go to STDOUT");
        }
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be > 0, not " + limit);
        }
        env = env == null ? null : Map.copyOf(env);
    }

    /** asyncio's defaults: every stream inherited, our directory and environment. */
    public static SubprocessOptions defaults() {
        return new SubprocessOptions(Stdio.INHERIT, Stdio.INHERIT, Stdio.INHERIT, null, null, StreamReader.DEFAULT_LIMIT);
    }

    /** stdin, stdout and stderr all piped. */
    public static SubprocessOptions pipes() {
        return defaults().withStdin(Stdio.PIPE).withStdout(Stdio.PIPE).withStderr(Stdio.PIPE);
    }

    /** These options with the child's standard input as {@code value} says. */
    public SubprocessOptions withStdin(Stdio value) {
        return new SubprocessOptions(value, stdout, stderr, cwd, env, limit);
    }

    /** These options with the child's standard output as {@code value} says. */
    public SubprocessOptions withStdout(Stdio value) {
        return new SubprocessOptions(stdin, value, stderr, cwd, env, limit);
    }

    /** These options with the child's standard error as {@code value} says. */
    public SubprocessOptions withStderr(Stdio value) {
        return new SubprocessOptions(stdin, stdout, value, cwd, env, limit);
    }

    /** These options, starting the child in directory {@code value} (null: this process's). */
    public SubprocessOptions withCwd(Path value) {
        return new SubprocessOptions(stdin, stdout, stderr, value, env, limit);
    }

    /** These options with {@code value} as the child's whole environment (null: this process's). */
    public SubprocessOptions withEnv(Map<String, String> value) {
        return new SubprocessOptions(stdin, stdout, stderr, cwd, value, limit);
    }

    /** These options with {@code value} as the limit of the pipes' stream readers. */
    public SubprocessOptions withLimit(int value) {
        return new SubprocessOptions(stdin, stdout, stderr, cwd, env, value);
    }
}

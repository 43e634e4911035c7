package io.jasyncio.subprocess;


import static io.jasyncio.Asyncio.createSubprocessExec;

/** The body of README.md's child process example, word for word (SubprocessTest runs it). */
final class ReadmeSubprocessExample {
    private ReadmeSubprocessExample() {
    }

    static String main() throws Exception {
        Subprocess tr = createSubprocessExec(SubprocessOptions.pipes(), "tr", "a-z", "A-Z");
        Subprocess.Output out = tr.communicate("hello, child\n".getBytes());

        Subprocess cat = createSubprocessExec(SubprocessOptions.pipes(), "cat");
        cat.stdin().write("ping\n".getBytes());
        cat.stdin().drain();                           // waits only if the pipe is full
        String echoed = new String(cat.stdout().readline());
        cat.kill();

        return new String(out.stdout()) + echoed + "cat: " + cat.waitFor();
    }
}

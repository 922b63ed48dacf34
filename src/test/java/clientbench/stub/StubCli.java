package clientbench.stub;


import clientbench.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./bench stub} as a process of its own, for tests of what only the command line does (the
 * per-second line, signals, {@code --control}). A test waits for a line with a deadline instead of blocking
 * on a stub that never prints it ({@link ChildJvm}).
 */
final class StubCli implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on https?://127\\.0\\.0\\.1:(\\d+)");
    /**
     * A shell started in the background (`nohup ./bench test &`) starts its commands with SIGINT ignored, and every
     * process they start inherits that (the JVM then installs no handler for it); coreutils' env puts it back to the
     * default before the stub's JVM starts, where env can.
     */
    private static final List<String> SIGINT_DEFAULT = List.of("env", "--default-signal=INT");
    private static final boolean CAN_RESET_SIGINT = canResetSigint();

    private final ChildJvm.Running process;
    final int port;

    StubCli(String... args) throws Exception {
        ChildJvm stub = ChildJvm.main(StubServer.class).args("--port", "0", "--io-threads", "1").args(args);
        process = CAN_RESET_SIGINT ? stub.start(SIGINT_DEFAULT.toArray(String[]::new)) : stub.start();
        Matcher m = LISTENING.matcher(await(LISTENING.asPredicate(), 30));
        if (!m.find()) {
            throw new IllegalStateException("no port in the stub's first line");
        }
        port = Integer.parseInt(m.group(1));
    }

    /** Whether Ctrl-C (SIGINT) reaches a stub started here: not ignored by this process, or put back by env. */
    static boolean sigintReachesIt() throws IOException {
        return CAN_RESET_SIGINT || !sigintIgnored();
    }

    /** The next line that matches, waiting at most {@code seconds}; fails naming what the stub printed. */
    String await(Predicate<String> wanted, long seconds) throws InterruptedException {
        return process.await(wanted, seconds);
    }

    /** Writes one command line to the stub's standard input. */
    void command(String line) throws IOException {
        process.write(line);
    }

    /** Sends a signal by name (INT, TERM) to the stub's process. */
    void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + name + " failed");
        }
    }

    /** The exit status, waiting at most {@code seconds}; fails if the stub is still running then. */
    int exitValue(long seconds) throws InterruptedException {
        return process.exitValue(seconds);
    }

    @Override
    public void close() {
        process.close();
    }

    private static boolean canResetSigint() {
        try {
            Process p = new ProcessBuilder(SIGINT_DEFAULT.get(0), SIGINT_DEFAULT.get(1), "true").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether this process ignores SIGINT (signal 2: bit 1 of SigIgn); false where /proc is not there to say. */
    private static boolean sigintIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }
}

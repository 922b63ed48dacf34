package clientbench.stub;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./bench stub} as a process of its own, for tests of what only the command line does (the
 * per-second line, signals, {@code --control}). Its output is read by a daemon thread into a queue, so a
 * test waits for a line with a deadline instead of blocking on a stub that never prints it.
 */
final class StubCli implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on https?://127\\.0\\.0\\.1:(\\d+)");

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    final int port;

    StubCli(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path")));
        if (Runtime.version().feature() >= 22) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.add(StubServer.class.getName());
        cmd.addAll(List.of("--port", "0", "--io-threads", "1"));
        cmd.addAll(List.of(args));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "stub-cli-output");
        pump.setDaemon(true);
        pump.start();
        Matcher m = LISTENING.matcher(await(LISTENING.asPredicate(), 30));
        if (!m.find()) {
            throw new IllegalStateException("no port in the stub's first line");
        }
        port = Integer.parseInt(m.group(1));
    }

    /** The next line that matches, waiting at most {@code seconds}; fails naming what the stub printed. */
    String await(Predicate<String> wanted, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.add(line);
                if (wanted.test(line)) {
                    return line;
                }
            }
        }
        throw new AssertionError("no such line from the stub within " + seconds + " s; it printed " + seen);
    }

    /** Writes one command line to the stub's standard input. */
    void command(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        in.flush();
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
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the stub still runs after " + seconds + " s");
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}

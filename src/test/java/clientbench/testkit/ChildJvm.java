package clientbench.testkit;

import clientbench.jvm.Jdk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A JVM of this JDK started as ./bench starts its JVMs (the flags of jdk-flags.txt), on the test's class path unless
 * told otherwise. A daemon thread reads its merged output, so a test waits for a line or the end with a deadline, never
 * blocks on a child that hangs, and fails naming what the child printed.
 */
public final class ChildJvm {
    private final List<String> jvmArgs = new ArrayList<>(Jdk.current().flags());
    private final String mainClass;
    private final List<String> args = new ArrayList<>();
    private String classPath = System.getProperty("java.class.path");

    private ChildJvm(String mainClass) {
        this.mainClass = mainClass;
    }

    /** A child that runs {@code main}'s main method. */
    public static ChildJvm main(Class<?> main) {
        return new ChildJvm(main.getName());
    }

    /** A child that runs the main method of the class named {@code mainClass}. */
    public static ChildJvm main(String mainClass) {
        return new ChildJvm(mainClass);
    }

    public ChildJvm jvmArgs(String... flags) {
        jvmArgs.addAll(List.of(flags));
        return this;
    }

    public ChildJvm classPath(String path) {
        classPath = path;
        return this;
    }

    public ChildJvm args(String... arguments) {
        args.addAll(List.of(arguments));
        return this;
    }

    /** The command line: java, the flags, the class path, the main class and its arguments. */
    public List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Jdk.current().java().toString());
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", classPath, mainClass));
        cmd.addAll(args);
        return cmd;
    }

    /** Starts it, prefixed by {@code launcher} (e.g. {@code env --default-signal=INT}); the caller closes it. */
    public Running start(String... launcher) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(launcher));
        cmd.addAll(command());
        return new Running(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    /** Runs it to its end, at most {@code seconds}: its exit status and everything it printed. */
    public Ended run(long seconds) throws IOException, InterruptedException {
        try (Running child = start()) {
            int status = child.exitValue(seconds);
            return new Ended(status, child.output());
        }
    }

    /** How a child ended: its exit status and its output. */
    public record Ended(int status, String output) {
    }

    /** A child that runs; {@link #close()} ends it by force if it still runs. */
    public static final class Running implements AutoCloseable {
        private final Process process;
        private final Thread pump;
        private final BlockingQueue<String> unread = new LinkedBlockingQueue<>();
        private final List<String> lines = new ArrayList<>();

        private Running(Process process) {
            this.process = process;
            this.pump = new Thread(this::pump, "child-jvm-output-" + process.pid());
            pump.setDaemon(true);
            pump.start();
        }

        private void pump() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    unread.add(line);
                }
            } catch (IOException ended) {
                // the child is gone
            }
        }

        public long pid() {
            return process.pid();
        }

        /** The next line not yet awaited that matches, waiting at most {@code seconds}; fails naming the output. */
        public String await(Predicate<String> wanted, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() - deadline < 0) {
                String line = unread.poll(100, TimeUnit.MILLISECONDS);
                if (line != null && wanted.test(line)) {
                    return line;
                }
            }
            throw new AssertionError("no such line from the child within " + seconds + " s; it printed:\n" + output());
        }

        /** Writes one line to the child's standard input. */
        public void write(String line) throws IOException {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** The exit status, waiting at most {@code seconds}; fails with its output (and ends it) if it still runs. */
        public int exitValue(long seconds) throws InterruptedException {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("the child still ran after " + seconds + " s; it printed:\n" + tail(60));
            }
            pump.join(10_000); // its last lines
            return process.exitValue();
        }

        /** Everything it printed so far. */
        public String output() {
            synchronized (lines) {
                return String.join("\n", lines);
            }
        }

        /** Its last {@code n} lines so far. */
        public String tail(int n) {
            synchronized (lines) {
                return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}

package clientbench.jvm;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Maven on PATH, run on a JDK with the flags every JVM clientbench starts gets (the launcher builds so too), its
 * output into a log file: for the builds and dependency lists clientbench makes besides its own.
 */
public final class Maven {

    /** What {@link #run} returns for a Maven that took longer than it may (and was ended). */
    public static final int TIMED_OUT = -1;

    /** Console colours, which Maven writes even with -Dstyle.color=never (resets before `-q`'s first line). */
    private static final Pattern COLOURS = Pattern.compile("\u001B\\[[0-9;]*m");

    private Maven() {
    }

    /** One line of Maven's output or of a file it wrote, its colour codes taken out. */
    public static String uncoloured(String line) {
        return COLOURS.matcher(line).replaceAll("");
    }

    /**
     * Runs {@code mvn args} and waits for it, at most {@code timeout}.
     * @return Maven's exit code, or {@link #TIMED_OUT}
     * @throws IOException when mvn cannot be started (not on PATH)
     */
    public static int run(List<String> args, Jdk jdk, Path log, Duration timeout) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("mvn"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", jdk.java().toAbsolutePath().getParent().getParent().toString());
        pb.environment().put("MAVEN_OPTS", String.join(" ", jdk.flags()));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot run Maven (mvn on PATH): " + e.getMessage(), e);
        }
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            return TIMED_OUT;
        }
        return p.exitValue();
    }
}

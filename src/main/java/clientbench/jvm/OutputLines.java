package clientbench.jvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** Reads a child JVM's output line by line on a daemon thread of its own, so the JVM never blocks on a full pipe. */
public final class OutputLines {

    private OutputLines() {
    }

    /** Hands each line of {@code in} to {@code lines} until the stream ends; join the returned thread to wait for it. */
    public static Thread drain(InputStream in, Consumer<String> lines, String threadName) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.accept(l);
                }
            } catch (IOException ignored) {
                // the JVM ended
            }
        }, threadName);
        t.setDaemon(true);
        t.start();
        return t;
    }
}

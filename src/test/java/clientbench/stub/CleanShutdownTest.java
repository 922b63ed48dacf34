package clientbench.stub;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** close() and SIGTERM both stop the stub completely: no listener, no connection, no thread left. */
@Timeout(60)
class CleanShutdownTest {

    @Test
    void closeFreesThePortTheConnectionsAndTheThreads() throws Exception {
        Set<Long> before = liveThreadIds();
        StubServer stub = StubServer.start(StubOptions.loopback());
        int port = stub.port();
        RawHttp open = new RawHttp(port);
        assertEquals(200, open.send(RawHttp.get("/")).read().status());
        stub.close();
        stub.close(); // idempotent
        assertEquals(-1, open.readByte(), "open connection closed by the stub");
        open.close();
        assertThrows(ConnectException.class, () -> new RawHttp(port).close());
        // A pool thread may still be in its last instructions when termination is signalled.
        Set<String> left = Set.of();
        for (long deadline = System.nanoTime() + 5_000_000_000L; System.nanoTime() < deadline; Thread.sleep(20)) {
            left = Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && !before.contains(t.threadId()))
                    .map(Thread::getName).collect(Collectors.toSet());
            if (left.isEmpty()) {
                break;
            }
        }
        assertEquals(Set.of(), left, "threads left behind");
    }

    @Test
    void sigtermPrintsTheTotalAndExits() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
        if (Runtime.version().feature() >= 22) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.addAll(List.of(StubServer.class.getName(), "--port", "0", "--io-threads", "1"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            int port = -1;
            Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");
            for (String line; port < 0 && (line = out.readLine()) != null; ) {
                Matcher m = listening.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                }
            }
            assertTrue(port > 0, "stub printed its port");
            try (RawHttp c = new RawHttp(port)) {
                for (int i = 0; i < 3; i++) {
                    assertEquals(200, c.send(RawHttp.get("/")).read().status());
                }
            }
            p.toHandle().destroy(); // SIGTERM; Process.destroy() would also close our end of its output
            assertTrue(p.waitFor(10, TimeUnit.SECONDS), "stub exited after SIGTERM");
            String rest = out.lines().collect(Collectors.joining("\n"));
            assertTrue(rest.contains("stopped; total requests=3"), rest);
            assertEquals(143, p.exitValue(), "exit status of a JVM ended by SIGTERM");
        } finally {
            p.destroyForcibly();
        }
    }

    private static Set<Long> liveThreadIds() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .map(Thread::threadId).collect(Collectors.toSet());
    }
}

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
        for (long deadline = System.nanoTime() + 15_000_000_000L; System.nanoTime() < deadline; Thread.sleep(20)) {
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
        try (StubCli stub = new StubCli()) {
            try (RawHttp c = new RawHttp(stub.port)) {
                for (int i = 0; i < 3; i++) {
                    assertEquals(200, c.send(RawHttp.get("/")).read().status());
                }
            }
            stub.signal("TERM");
            String total = stub.await(l -> l.contains("stopped; total requests="), 20);
            assertTrue(total.contains("total requests=3"), total);
            assertEquals(143, stub.exitValue(20), "exit status of a JVM ended by SIGTERM");
        }
    }

    private static Set<Long> liveThreadIds() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .map(Thread::threadId).collect(Collectors.toSet());
    }
}

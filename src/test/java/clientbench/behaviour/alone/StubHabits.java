package clientbench.behaviour.alone;

import clientbench.harness.record.Thresholds;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** What every library-alone test needs of the stub: its habits' queries, its count of each request, stubs on hosts. */
final class StubHabits {

    /** The header the stub counts a logical request by. */
    static final String KEY = "Idempotency-Key";
    /** The idle race: the connection, idle 100 ms or more after this answer, closed as the next head arrives. */
    static final String RACE = "/?idleClose=race&idleMs=100";
    /** Long past the server's idle close, as the stale cases wait: the close has arrived before the next send. */
    static final Duration IDLE = Duration.ofMillis(500);
    /**
     * The trickle of the deadline cases: a byte every 400 ms, well inside a per-read timeout of 1 s; 10 bytes, 4 s in
     * all, past a total one. The TLS front trickles a handshake at the same pace.
     */
    static final long TRICKLE_MS = 400;
    static final int TRICKLE_BYTES = 10;
    static final String TRICKLE = "/?fault=trickle&bytes=" + TRICKLE_BYTES + "&trickleMs=" + TRICKLE_MS;
    static final String STALL = "/?fault=stall&bytes=1000";
    static final String NEVER = "/?fault=never";
    /** The cases' request timeout, and how far past it a deadline counts as never fired (thresholds.json). */
    static final Duration TIMEOUT = Duration.ofSeconds(1);
    static final Duration LATE = Duration.ofMillis(Thresholds.DEADLINE_LATE_MILLIS);
    /** Heads padded past Netty's 8 KiB default and within the 16 KiB every client should read. */
    static final int HEAD_BYTES = 12 * 1024;
    /** The slow-host case's hosts: the slow ones 127.0.0.10 and up, the fast one 127.0.0.2. */
    private static final int FIRST_SLOW_OCTET = 10;
    private static final String FAST_HOST = "127.0.0.2";

    private StubHabits() {
    }

    /** One GET to {@code url}, keyed {@code key}, sent: its status and body length, or the failure's class. */
    interface Get {
        java.util.concurrent.CompletableFuture<String> get(String url, String key);
    }

    /** Times the stub read each request whose key starts with {@code prefix}, in all. */
    static int reads(StubServer stub, String prefix) {
        return stub.seen(prefix).values().stream().mapToInt(Integer::intValue).sum();
    }

    /** {@code n} stubs, each on its own loopback address (127.0.0.10 and up): hosts by name, as a client counts them. */
    static List<StubServer> slowHosts(int n) throws Exception {
        List<StubServer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(StubServer.start(new StubOptions("127.0.0." + (FIRST_SLOW_OCTET + i), 0, 1, false, false)));
        }
        return out;
    }

    static StubServer fastHost() throws Exception {
        return StubServer.start(new StubOptions(FAST_HOST, 0, 1, false, false));
    }

    /** Blocks until {@code condition} holds or {@code bound} passes; whether it held. */
    static boolean until(BooleanSupplier condition, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }
}

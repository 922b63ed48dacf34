package clientbench.harness.probe;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Counts this machine's established TCP connections to one address and port from the kernel's tables (/proc/net/tcp,
 * tcp6): what the client really opened, whatever its pool says. The remote end must match, so a server on the same port
 * elsewhere, or the stub's accepted sockets, never count.
 */
public final class TcpConnections {
    private static final String ESTABLISHED = "01";

    /** The target's addresses as the tables write them (hex, host byte order), each with ":PORT" in hex. */
    private final Set<String> remotes;

    private TcpConnections(Set<String> remotes) {
        this.remotes = remotes;
    }

    /** For {@code target}'s host (every address it resolves to) and port; null when it cannot be resolved. */
    public static TcpConnections to(URI target) {
        int port = target.getPort() > 0 ? target.getPort() : "https".equals(target.getScheme()) ? 443 : 80;
        try {
            Set<String> remotes = new HashSet<>();
            for (InetAddress a : InetAddress.getAllByName(target.getHost())) {
                for (String hex : tableForms(a)) {
                    remotes.add(hex + ":" + String.format(Locale.ROOT, "%04X", port));
                }
            }
            return new TcpConnections(remotes);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * How the kernel prints {@code a}: IPv4 as 8 hex digits of the address read as a little-endian word
     * (127.0.0.1 is 0100007F), in tcp6 also as IPv4-mapped ::ffff:a.b.c.d; IPv6 as four such words.
     */
    static List<String> tableForms(InetAddress a) {
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            String v4 = words(b);
            return List.of(v4, "0000000000000000FFFF0000" + v4);
        }
        if (a instanceof Inet6Address) {
            return List.of(words(b));
        }
        return List.of();
    }

    /** Each 4-byte word of {@code b} in the table's byte order (least significant byte first). */
    private static String words(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < b.length; w += 4) {
            for (int i = 3; i >= 0; i--) {
                sb.append(String.format(Locale.ROOT, "%02X", b[w + i] & 0xff));
            }
        }
        return sb.toString();
    }

    /** Established connections to the target now; -1 where the tables cannot be read (not Linux). */
    public long established() {
        Set<String> connections = new HashSet<>();
        boolean read = false;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try (var lines = Files.lines(Path.of(table))) {
                read = true;
                connections.addAll(connections(lines.skip(1)));
            } catch (IOException | RuntimeException ignored) {
                // this table is missing or unreadable; the other may do
            }
        }
        return read ? connections.size() : -1;
    }

    /**
     * The established connections to the target among a table's rows, each as "local remote". The kernel prints a
     * table a page at a time, finding its place in the hash again for each page: rows can repeat when sockets open or
     * close meanwhile (one socket three times in one read), so count connections, never rows.
     */
    Set<String> connections(Stream<String> rows) {
        Set<String> out = new HashSet<>();
        // Each row: "sl local_address rem_address st ...": f[1], f[2] are "HEXADDR:HEXPORT", f[3] the state.
        rows.map(l -> l.trim().split("\\s+"))
                .filter(f -> f.length > 3 && ESTABLISHED.equals(f[3]) && remotes.contains(f[2]))
                .forEach(f -> out.add(f[1] + " " + f[2]));
        return out;
    }

    /**
     * Samples {@link #established()} a few times a second on a daemon thread and keeps the peak since the
     * last {@link PeakSampler#peakAndReset()}: the peak during a window where no stub counts it. A read walks the
     * kernel's whole table of connections (milliseconds of system time, however few are open), so the thread belongs
     * off the client's CPUs ({@link #tid()}) and its CPU time out of the client's ({@link #cpuNanos()}).
     */
    public final class PeakSampler implements AutoCloseable {
        static final long INTERVAL_MILLIS = 250;
        private final AtomicLong peak = new AtomicLong(-1);
        private final Thread thread;
        private final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        private volatile long tid = -1;
        private volatile boolean closed;

        public PeakSampler() {
            thread = new Thread(() -> {
                tid = KernelThreadId.current();
                started.countDown();
                while (!closed) {
                    long n = established();
                    peak.accumulateAndGet(n, Math::max);
                    try {
                        Thread.sleep(INTERVAL_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "clientbench-connection-sampler");
            thread.setDaemon(true);
            thread.start();
            try {
                started.await(5, java.util.concurrent.TimeUnit.SECONDS); // a loaded host: tid() stays -1 a while
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The sampling thread's kernel id, for pinning it; -1 where it was not read. */
        public long tid() {
            return tid;
        }

        /** The sampling thread's CPU time so far in ns, or -1 where unknown. */
        public long cpuNanos() {
            return JvmCounters.threadCpuNanos(thread.threadId());
        }

        /** The peak since the last reset, as sampled so far (-1: none yet); for tests that wait for a sample. */
        long peak() {
            return peak.get();
        }

        /**
         * The peak since the last reset, or -1 (none sampled, or not Linux); the next starts from {@code now}, the
         * caller's own {@link #established()} (each read walks the kernel's table: one read serves both).
         */
        public long peakAndReset(long now) {
            return peak.getAndSet(now);
        }

        @Override
        public void close() {
            closed = true;
            thread.interrupt();
        }
    }
}

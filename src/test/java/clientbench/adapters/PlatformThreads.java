package clientbench.adapters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

/**
 * The JVM's live platform threads, to prove that close() ends every thread an adapter started.
 * Virtual threads never appear here: {@link Thread#getAllStackTraces()} lists platform threads only.
 */
final class PlatformThreads {

    private final Set<Long> baseline;

    private PlatformThreads(Set<Long> baseline) {
        this.baseline = baseline;
    }

    /**
     * Takes the baseline after starting the JVM-wide threads a test would otherwise see appear later,
     * whichever test happens to run first: the virtual-thread scheduler's carriers, its timer
     * ("VirtualThread-unparker") and its I/O poller ("MasterPoller").
     */
    static PlatformThreads baseline() throws IOException, InterruptedException {
        warmVirtualThreadScheduler();
        warmVirtualThreadIoPoller();
        return new PlatformThreads(live().stream().map(Thread::threadId).collect(Collectors.toSet()));
    }

    /** Platform threads alive now that were not at the baseline, less the JVM-wide ones {@link #excluded} lists. */
    List<String> added() {
        return live().stream()
                .filter(t -> t.isAlive() && !baseline.contains(t.threadId()) && !excluded(t))
                .map(PlatformThreads::named)
                .sorted()
                .toList();
    }

    /** "name (group)": the group read once, as a thread that ends meanwhile has none (getThreadGroup() turns null). */
    private static String named(Thread t) {
        ThreadGroup group = t.getThreadGroup();
        return t.getName() + " (" + (group == null ? "no group" : group.getName()) + ")";
    }

    /**
     * Waits until no added thread is left and {@code openConnections} reads 0.
     *
     * @throws AssertionError naming what is left after {@code max}
     */
    void awaitBackToBaseline(IntSupplier openConnections, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        List<String> left = added();
        int open = openConnections.getAsInt();
        while ((!left.isEmpty() || open != 0) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = added();
            open = openConnections.getAsInt();
        }
        if (!left.isEmpty() || open != 0) {
            throw new AssertionError("after close() and " + max.toMillis() + " ms: " + left.size()
                    + " platform thread(s) left " + left + ", " + open + " connection(s) still open at the stub");
        }
    }

    /**
     * JVM- or library-wide threads no adapter's close() can end, whose number a warm-up cannot fix: the virtual-thread
     * scheduler's "CarrierThreads" (idle ones retired after 30 s), {@link ForkJoinPool#commonPool()} workers (used by
     * the JDK's HttpClient; 60 s), OkHttp's "Okio Watchdog" (no stop API; exits after 60 s without timeouts) and the
     * thread of CompletableFuture's timeouts (Spring's JdkClientHttpRequestFactory read timeout): the common pool's
     * "delayScheduler" from JDK 25, before it "CompletableFutureDelayScheduler"; neither ends.
     */
    private static final Set<String> DELAYERS = Set.of("ForkJoinPool.commonPool-delayScheduler",
            "CompletableFutureDelayScheduler");

    private static boolean excluded(Thread t) {
        ThreadGroup group = t.getThreadGroup();
        return (group != null && group.getName().equals("CarrierThreads"))
                || (t instanceof ForkJoinWorkerThread w && w.getPool() == ForkJoinPool.commonPool())
                || t.getName().equals("Okio Watchdog") || DELAYERS.contains(t.getName());
    }

    private static Set<Thread> live() {
        return Thread.getAllStackTraces().keySet();
    }

    /** One blocking socket exchange on a virtual thread, which starts the JVM's poller for such I/O. */
    private static void warmVirtualThreadIoPoller() throws IOException, InterruptedException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread client = Thread.ofVirtual().start(() -> {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                    s.getInputStream().read();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            try (Socket accepted = server.accept()) {
                Thread.sleep(20); // let the virtual thread block in read, which is what needs the poller
                accepted.getOutputStream().write(1);
            }
            client.join();
        }
    }

    /** Parks virtual threads on every carrier at once, so the scheduler and its timer exist before the baseline. */
    private static void warmVirtualThreadScheduler() throws InterruptedException {
        int n = Runtime.getRuntime().availableProcessors() * 2;
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
        }
        done.await();
    }
}

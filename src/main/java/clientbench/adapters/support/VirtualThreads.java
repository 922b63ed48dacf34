package clientbench.adapters.support;

import clientbench.api.Completion;
import clientbench.api.Outcome;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/** The virtual-thread variants' executor: one new virtual thread per request, named after the adapter. */
public final class VirtualThreads {

    /** How the settings describe the variants' threading. */
    public static final String THREADING = "blocking API, one virtual thread per request on the JVM's shared scheduler";

    private VirtualThreads() {
    }

    /**
     * Threads named {@code <adapter>-vt-N} ({@code apache-vt-N}, not {@code apache-vt-vt-N}); the executor
     * tracks them so that close() can wait for them.
     */
    public static ExecutorService perRequest(String adapterName) {
        String prefix = adapterName.endsWith("-vt") ? adapterName + "-" : adapterName + "-vt-";
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(prefix, 0).factory());
    }

    /** Runs {@code exchange} on its own virtual thread; once the executor is shut down, the request is {@code REJECTED}. */
    public static void start(ExecutorService threads, Completion completion, Runnable exchange) {
        try {
            threads.execute(exchange);
        } catch (RejectedExecutionException e) {
            completion.complete(Outcome.REJECTED, 0, e);
        }
    }

    /** Interrupts what still runs and waits, bounded (an adapter that closes its client first leaves little running). */
    public static void shutdown(ExecutorService threads) {
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

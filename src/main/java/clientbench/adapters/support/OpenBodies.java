package clientbench.adapters.support;

import java.util.ArrayList;
import java.util.List;

/**
 * The responses whose body a caller left open ({@code Request.leavesBodyOpen}), each as what would close it: held
 * strongly, as a caller's list of responses holds them, so no collector or cleaner frees a connection; the adapter's
 * close() closes them, before the client's own close, so every socket is freed.
 */
public final class OpenBodies {

    private final List<AutoCloseable> held = new ArrayList<>();
    private boolean closed;

    /** Holds {@code closer} until {@link #closeAll()}; after it, closes it at once (a response that came too late). */
    public void hold(AutoCloseable closer) {
        synchronized (held) {
            if (!closed) {
                held.add(closer);
                return;
            }
        }
        closeQuietly(closer);
    }

    /** Closes every body held, once; idempotent. A failure to close one does not keep the others open. */
    public void closeAll() {
        List<AutoCloseable> all;
        synchronized (held) {
            closed = true;
            all = new ArrayList<>(held);
            held.clear();
        }
        all.forEach(OpenBodies::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // the client's close frees the connection under it anyway
        }
    }
}

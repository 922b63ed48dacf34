package clientbench.adapters.support;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * The responses whose body a caller left open ({@code Request.leavesBodyOpen}) and forgot: each held only weakly, as by
 * a caller that dropped it, so that its library may collect it, reclaim its connection or leak it. The adapter's close()
 * closes those still reachable (held by their library), before the client's own close, so every socket is freed.
 */
public final class OpenBodies {

    /** What closes a body of type {@code T}. */
    @FunctionalInterface
    public interface Closer<T> {
        void close(T body) throws Exception;
    }

    private record Held<T>(WeakReference<T> body, Closer<? super T> closer) {
        boolean gone() {
            return body.get() == null;
        }

        void closeQuietly() {
            T b = body.get();
            if (b == null) {
                return;
            }
            try {
                closer.close(b);
            } catch (Exception e) {
                // the client's close frees the connection under it anyway
            }
        }
    }

    private final List<Held<?>> held = new ArrayList<>();
    private boolean closed;

    /**
     * Holds {@code body} weakly until {@link #closeAll()}, with what closes it (a method of its own: a lambda holding it
     * would keep it reachable); after closeAll, closes it at once (a response that came too late).
     */
    public <T> void hold(T body, Closer<? super T> closer) {
        Held<T> h = new Held<>(new WeakReference<>(body), closer);
        synchronized (held) {
            if (!closed) {
                held.removeIf(Held::gone);
                held.add(h);
                return;
            }
        }
        h.closeQuietly();
    }

    /** Closes every body still reachable, once; idempotent. A failure to close one does not keep the others open. */
    public void closeAll() {
        List<Held<?>> all;
        synchronized (held) {
            closed = true;
            all = new ArrayList<>(held);
            held.clear();
        }
        all.forEach(Held::closeQuietly);
    }
}

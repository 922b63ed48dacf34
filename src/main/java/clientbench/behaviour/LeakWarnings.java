package clientbench.behaviour;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The leak warnings a library logs on java.util.logging while it listens (OkHttp's "A connection to ... was leaked. Did
 * you forget to close a response body?" goes there): records at WARNING or above that mention a leak. Libraries that
 * log through SLF4J are not heard here.
 */
final class LeakWarnings extends Handler implements AutoCloseable {

    private final AtomicInteger count = new AtomicInteger();

    private LeakWarnings() {
    }

    /** Listens on the root logger until closed. */
    static LeakWarnings listen() {
        LeakWarnings w = new LeakWarnings();
        Logger.getLogger("").addHandler(w);
        return w;
    }

    int count() {
        return count.get();
    }

    @Override
    public void publish(LogRecord r) {
        String message = String.valueOf(r.getMessage()).toLowerCase(Locale.ROOT);
        if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue() && message.contains("leak")) {
            count.incrementAndGet();
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}

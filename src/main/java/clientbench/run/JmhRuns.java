package clientbench.run;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.Collection;

/**
 * JMH's {@code Runner.run()} holds the machine-wide JMH lock (tmpdir/jmh.lock) for one run at a time, and an
 * interleaved set runs one per client at once: the set holds that same lock itself, so no other JMH run on the machine
 * starts meanwhile, and runs each Runner's body without it.
 */
public final class JmhRuns {

    private JmhRuns() {
    }

    /** The JMH lock while held; closing it lets other JMH runs on the machine start. */
    interface Lock extends AutoCloseable {
        @Override
        void close() throws IOException;
    }

    /** The JMH lock, held until closed; an error with JMH's own words when another run holds it. */
    static Lock lock() throws RunnerException {
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        if (Boolean.getBoolean("jmh.ignoreLock")) {
            return () -> { };
        }
        try {
            RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
            FileLock lock;
            try {
                lock = raf.getChannel().tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                raf.close();
                throw new RunnerException("ERROR: Another JMH instance might be running. Unable to acquire the JMH lock ("
                        + file + "), exiting. Use -Djmh.ignoreLock=true to forcefully continue.");
            }
            FileLock held = lock;
            return () -> {
                held.close();
                raf.close();
            };
        } catch (IOException e) {
            throw new RunnerException("ERROR: Unable to create the JMH lock (" + file + ")", e);
        }
    }

    /** {@code runner}'s run while {@link #lock()} is held by the caller. */
    @SuppressWarnings("unchecked")
    public static Collection<RunResult> runLocked(Runner runner) throws RunnerException {
        try {
            Method body = Runner.class.getDeclaredMethod("internalRun");
            body.setAccessible(true);
            return (Collection<RunResult>) body.invoke(runner);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RunnerException r) {
                throw r;
            }
            throw new RunnerException("JMH's run failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this JMH has no Runner.internalRun(): the set cannot run its clients at once", e);
        }
    }
}

package clientbench.stub;

import java.util.ArrayList;
import java.util.List;

/**
 * The answers whose requests asked to be held ({@code hold=true}) until the stub's owner releases them, in-process
 * ({@link StubServer#releaseHeld()}): then each goes out (after its {@code delayMs}), and none that comes later is held.
 */
final class HeldAnswers {

    private final List<Runnable> waiting = new ArrayList<>();
    private boolean released;

    /** Keeps {@code due} until the release; false once released: the answer is due now. */
    synchronized boolean hold(Runnable due) {
        if (released) {
            return false;
        }
        waiting.add(due);
        return true;
    }

    void release() {
        List<Runnable> due;
        synchronized (this) {
            released = true;
            due = List.copyOf(waiting);
            waiting.clear();
        }
        due.forEach(Runnable::run);
    }
}

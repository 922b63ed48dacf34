package clientbench.interleave;

import clientbench.harness.TurnTaker;
import clientbench.testkit.ChildJvm;
import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A set that freezes stops every fork but the one holding the turn, and each one's stub, as the kernel reports them
 * (state T in /proc/PID/stat), and continues them all at its end. The forks are JVMs taking their turns through
 * {@link TurnTaker}; their stubs are {@code sleep} processes (S while they wait, T once stopped).
 */
@Timeout(120)
class WaitingForksAndStubsAreStoppedTest {

    private static final List<String> NAMES = List.of("a", "b", "c");
    private static final int BLOCKS = 2;
    /**
     * How long a signalled process may take to show its new state: it changes the next time the kernel runs it,
     * milliseconds even on a busy machine; a set that never stops its forks never gets there.
     */
    private static final long STATE_BOUND_MILLIS = 10_000;

    /** One fork of the set: its JVM and its stub's process. */
    record Fork(String name, ChildJvm.Running jvm, Process stub) {
    }

    @Test
    void whileOneForkHoldsTheTurnEveryOtherForkAndEveryStubIsStoppedAndAllRunAgainAtTheEnd() throws Exception {
        Prerequisites.require(Files.isReadable(Path.of("/proc/self/stat")), "needs /proc/<pid>/stat (Linux)");
        Map<String, Fork> forks = new LinkedHashMap<>();
        BlockingQueue<String> holds = new LinkedBlockingQueue<>();
        List<String> seen = new ArrayList<>();
        try (TurnPasser passer = new TurnPasser(true)) {
            try {
                for (String name : NAMES) {
                    Process stub = new ProcessBuilder("sleep", "110").start(); // ends by itself, after the test's bound
                    ChildJvm.Running jvm = ChildJvm.main(TurnTakingFork.class)
                            .jvmArgs("-D" + TurnTaker.PROPERTY + "=" + passer.address())
                            .args(name, Long.toString(stub.pid()), Integer.toString(BLOCKS)).start();
                    forks.put(name, new Fork(name, jvm, stub));
                    Thread.ofPlatform().daemon().start(() -> relayTurns(jvm, holds));
                }
                CompletableFuture<Map<String, Object>> passed = CompletableFuture.supplyAsync(() -> {
                    try {
                        return passer.passTurns(NAMES, BLOCKS, new Random(11), n -> false, s -> { });
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                for (int turn = 0; turn < NAMES.size() * (1 + BLOCKS); turn++) {
                    String line = holds.poll(60, TimeUnit.SECONDS);
                    assertNotNull(line, "no fork held the turn within 60 s after " + seen);
                    seen.add(line);
                    Fork holder = forks.get(line.split(" ")[1]);
                    for (Fork f : forks.values()) {
                        if (f != holder) {
                            assertEquals('T', stateOnce(f.jvm().pid(), s -> s == 'T'), f.name() + "'s fork, " + line);
                            assertEquals('T', stateOnce(f.stub().pid(), s -> s == 'T'), f.name() + "'s stub, " + line);
                        }
                    }
                    assertNotEquals('T', stateOnce(holder.stub().pid(), s -> s != 'T'), "the holder's own stub, " + line);
                    holder.jvm().write("checked");
                }
                Map<String, Object> record = passed.get(60, TimeUnit.SECONDS);
                assertEquals(Map.of(), record.get("notStopped"), record.toString());
                for (Fork f : forks.values()) {
                    f.jvm().write("end");
                    assertEquals(0, f.jvm().exitValue(30), f.jvm().output());
                    assertNotEquals('T', stateOnce(f.stub().pid(), s -> s != 'T'), f.name() + "'s stub, after the set");
                }
            } finally {
                for (Fork f : forks.values()) {
                    f.jvm().close();
                    f.stub().destroyForcibly();
                }
            }
        }
    }

    /** Passes on each turn the fork says it holds ("holds NAME KIND BLOCK"). */
    private static void relayTurns(ChildJvm.Running jvm, BlockingQueue<String> holds) {
        try {
            for (int i = 0; i <= BLOCKS; i++) {
                holds.add(jvm.await(l -> l.startsWith("holds "), 110));
            }
        } catch (InterruptedException | AssertionError e) {
            // the fork said no more: the test's own wait for the turn fails, naming the turns seen
        }
    }

    /** The state letter of /proc/PID/stat once {@code wanted} holds, or the last one read after the bound. */
    private static char stateOnce(long pid, Predicate<Character> wanted) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STATE_BOUND_MILLIS);
        char state = state(pid);
        while (!wanted.test(state) && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
            state = state(pid);
        }
        return state;
    }

    private static char state(long pid) throws IOException {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (NoSuchFileException gone) {
            return '-';
        }
    }
}

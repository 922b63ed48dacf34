package clientbench.interleave;

import clientbench.harness.TurnTaker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The turn passes as a set promises: forks warm up one at a time, then every block gives each fork one window in an
 * order of its own, and no two forks ever hold the turn at once. Fake forks speak {@link TurnTaker} from threads of
 * this JVM and count who holds the turn themselves; the turn passer's own record is checked against their log.
 */
@Timeout(60)
class TurnPasserTest {

    /** What a fake fork saw: its name, the turn's kind and block, and how many held the turn when it did. */
    record Held(String name, String kind, int block, int holders) {
    }

    @Test
    void oneForkHoldsTheTurnAtATimeAndEachBlockIsAPermutation() throws Exception {
        List<String> names = List.of("a", "b", "c", "noop");
        int blocks = 5;
        AtomicInteger holding = new AtomicInteger();
        List<Held> log = new CopyOnWriteArrayList<>();
        Map<String, Object> record;
        List<Thread> forks = new ArrayList<>();
        try (TurnPasser passer = new TurnPasser(false)) {
            System.setProperty(TurnTaker.PROPERTY, passer.address());
            try {
                for (String name : names) {
                    forks.add(Thread.ofPlatform().start(() -> fakeFork(name, blocks, holding, log)));
                }
                record = passer.passTurns(names, blocks, new Random(7), n -> false, s -> { });
            } finally {
                System.clearProperty(TurnTaker.PROPERTY);
            }
            for (Thread t : forks) {
                t.join(10_000);
            }
        }
        assertTrue(log.stream().allMatch(h -> h.holders() == 1), "two forks held the turn at once: " + log);
        assertEquals(names.size() * (blocks + 1), log.size(), "every fork's warm-up and windows: " + log);
        List<Held> settles = log.subList(0, names.size());
        assertEquals(Set.copyOf(names), settles.stream().map(Held::name).collect(Collectors.toSet()));
        assertTrue(settles.stream().allMatch(h -> h.kind().equals("settle") && h.block() == 0), "warm-ups first: " + log);
        List<List<String>> orders = new ArrayList<>();
        for (int b = 1; b <= blocks; b++) {
            int block = b;
            List<String> order = log.stream().filter(h -> h.block() == block).map(Held::name).toList();
            assertEquals(new HashSet<>(names), new HashSet<>(order), "block " + b + " gives each fork one window");
            assertEquals(names.size(), order.size());
            orders.add(order);
        }
        assertEquals(orders, record.get("blockOrders"), "the record says the orders the forks saw");
        assertTrue(new HashSet<>(orders).size() > 1, "orders drawn anew for each block: " + orders);
        assertEquals(List.of(), record.get("left"));
    }

    @Test
    void aForkThatEndsEarlyLeavesTheSetAndTheOthersGoOn() throws Exception {
        List<String> names = List.of("a", "quits", "b");
        AtomicInteger holding = new AtomicInteger();
        List<Held> log = new CopyOnWriteArrayList<>();
        Map<String, Object> record;
        try (TurnPasser passer = new TurnPasser(false)) {
            System.setProperty(TurnTaker.PROPERTY, passer.address());
            List<Thread> forks = new ArrayList<>();
            try {
                for (String name : names) {
                    forks.add(Thread.ofPlatform().start(() -> fakeFork(name, name.equals("quits") ? 1 : 3, holding, log)));
                }
                record = passer.passTurns(names, 3, new Random(1), n -> false, s -> { });
            } finally {
                System.clearProperty(TurnTaker.PROPERTY);
            }
            for (Thread t : forks) {
                t.join(10_000);
            }
        }
        assertEquals(3, log.stream().filter(h -> h.name().equals("a") && h.block() > 0).count(), log.toString());
        assertEquals(3, log.stream().filter(h -> h.name().equals("b") && h.block() > 0).count(), log.toString());
        @SuppressWarnings("unchecked")
        List<String> left = (List<String>) record.get("left");
        assertEquals(1, left.size(), left.toString());
        assertTrue(left.get(0).startsWith("quits: its fork ended"), left.toString());
    }

    @Test
    void aForkThatCannotBeStoppedIsCountedInTheRecord() throws Exception {
        // A pid above the kernel's pid_max names no process: every SIGSTOP to it fails, as one to a fork that is gone.
        // (Read as a stream: Files.readString reads one byte of this file on some kernels' sandboxes.)
        long noSuchPid;
        try (java.io.InputStream in = new java.io.FileInputStream("/proc/sys/kernel/pid_max")) {
            noSuchPid = Long.parseLong(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim()) + 1;
        }
        int blocks = 2;
        Map<String, Object> record;
        try (TurnPasser passer = new TurnPasser(true)) {
            String[] at = passer.address().split(":");
            Thread fork = Thread.ofPlatform().start(() -> rawFork(at[0], Integer.parseInt(at[1]), "ghost " + noSuchPid + " -1",
                    blocks));
            record = passer.passTurns(List.of("ghost"), blocks, new Random(3), n -> false, s -> { });
            fork.join(10_000);
        }
        // stopped on arrival, after its warm-up and after each window: every one of them failed
        assertEquals(Map.of("ghost", 1 + 1 + blocks), record.get("notStopped"));
        assertEquals(List.of(), record.get("left"));
    }

    /** A fork speaking {@link TurnTaker}'s lines itself, so that its hello can name any pid. */
    private static void rawFork(String host, int port, String hello, int windows) {
        try (java.net.Socket s = new java.net.Socket(host, port);
             java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream()));
             java.io.PrintWriter out = new java.io.PrintWriter(s.getOutputStream(), true)) {
            out.println("hello " + hello);
            for (int w = 0; w <= windows; w++) {
                out.println(w == 0 ? "ready settle" : "ready window");
                assertEquals("go " + w, in.readLine());
                out.println("done");
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A fork's turns as LoadBenchmark takes them: settle, then {@code windows} measured windows, then it ends. */
    private static void fakeFork(String name, int windows, AtomicInteger holding, List<Held> log) {
        try (TurnTaker turn = TurnTaker.fromProperty(name, -1)) {
            take(turn, name, "settle", holding, log);
            for (int w = 0; w < windows; w++) {
                take(turn, name, "window", holding, log);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void take(TurnTaker turn, String name, String kind, AtomicInteger holding, List<Held> log)
            throws InterruptedException {
        int block = turn.await(kind);
        int holders = holding.incrementAndGet();
        Thread.sleep(5); // long enough for a second holder, were there one, to show
        log.add(new Held(name, kind, block, holders));
        holding.decrementAndGet();
        turn.done();
    }
}

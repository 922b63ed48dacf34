package clientbench.interleave;

import clientbench.harness.TurnTaker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Passes the turn among the forks of one interleaved set ({@link TurnTaker} is the fork's side): every fork warms up
 * alone in a random order, then each block gives every fork one measured window, in an order drawn anew for the block.
 * A fork that does not hold the turn is stopped with its stub (SIGSTOP) so it costs the measured one nothing; every
 * fork is continued before this returns, whatever happened.
 */
public final class TurnPasser implements AutoCloseable {

    /** The longest a fork may take to start, or to warm up once it holds the turn (its bound is the shape's). */
    static final Duration START = Duration.ofMinutes(3);
    /** The longest a measured turn may take: its resume and measured windows and the drain, with room for a slow host. */
    static final Duration WINDOW = Duration.ofMinutes(2);

    private final ServerSocket server;
    private final Map<String, Seat> seats = new ConcurrentHashMap<>();
    private final Thread acceptor;
    private final boolean freeze;
    /** Per fork, how often it could not be stopped where it should have been: it idled running, and the record says so. */
    private volatile Map<String, Integer> notStopped = new ConcurrentHashMap<>();
    /** On Ctrl-C this JVM ends: a fork it stopped would stay stopped, its stub with it, so it continues them all. */
    private final Thread continueOnExit = new Thread(() -> seats.values().forEach(Seat::resume), "clientbench-turns-exit");

    /** @param freeze stop the forks (and stubs) that wait for their turn; false: they only park */
    public TurnPasser(boolean freeze) throws IOException {
        this.freeze = freeze;
        server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "clientbench-turns-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        Runtime.getRuntime().addShutdownHook(continueOnExit);
    }

    /** The forks' {@link TurnTaker#PROPERTY} value. */
    public String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    /**
     * Runs the set: waits until every fork of {@code names} asks for its warm-up turn (or {@code gone} says its run
     * ended), then the warm-ups one at a time, then {@code blocks} blocks. Returns the set's record: the orders, and
     * the forks that left early and when.
     */
    public Map<String, Object> passTurns(List<String> names, int blocks, Random random, Predicate<String> gone,
                                       Consumer<String> progress) throws InterruptedException {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("idle", freeze ? "stopped with their stubs (SIGSTOP) until their turn" : "parked, not stopped");
        List<String> left = new ArrayList<>();
        record.put("left", left);
        notStopped = new ConcurrentHashMap<>();
        record.put("notStopped", notStopped);
        try {
            List<Seat> present = arrive(names, gone, left);
            List<Seat> order = new ArrayList<>(present);
            Collections.shuffle(order, random);
            record.put("warmupOrder", order.stream().map(s -> s.name).toList());
            for (Seat s : order) {
                progress.accept("warming up " + s.name);
                turn(s, "settle", 0, START, left);
            }
            List<List<String>> orders = new ArrayList<>();
            record.put("blockOrders", orders);
            for (int b = 1; b <= blocks; b++) {
                List<Seat> block = new ArrayList<>(present.stream().filter(s -> !s.gone).toList());
                if (block.isEmpty()) {
                    break;
                }
                Collections.shuffle(block, random);
                orders.add(block.stream().map(s -> s.name).toList());
                progress.accept("block " + b + "/" + blocks);
                for (Seat s : block) {
                    turn(s, "window", b, WINDOW, left);
                }
            }
        } finally {
            seats.values().forEach(Seat::resume);
        }
        return record;
    }

    /** Waits for every fork's hello and first {@code ready settle}; each is stopped as it arrives. */
    private List<Seat> arrive(List<String> names, Predicate<String> gone, List<String> left) throws InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        List<Seat> present = new ArrayList<>();
        for (String name : names) {
            while (!seats.containsKey(name) && !gone.test(name) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Seat s = seats.get(name);
            if (s == null) {
                left.add(name + ": never asked for a turn (its fork failed to start, or took over " + START.toSeconds() + " s)");
                continue;
            }
            if (s.expect("ready settle", START, left)) {
                s.freeze();
                present.add(s);
            }
        }
        return present;
    }

    /** One turn: continue the fork, let it go, wait for it to hand the turn back, stop it again. */
    private void turn(Seat s, String kind, int block, Duration bound, List<String> left) {
        if (s.gone) {
            return;
        }
        s.resume();
        // A fork's first "ready settle" was read as it arrived; every other "ready" is read here.
        if (!("ready " + kind).equals(s.pending) && !s.expect("ready " + kind, WINDOW, left)) {
            return;
        }
        s.out.println("go " + block);
        if (s.expect("done", bound, left)) {
            s.freeze();
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                Seat s = new Seat(socket);
                seats.put(s.name, s);
            } catch (IOException | RuntimeException e) {
                // closed, or a fork that said no hello: its run fails on its own and the set goes on without it
            }
        }
    }

    @Override
    public void close() throws IOException {
        seats.values().forEach(Seat::resume);
        try {
            Runtime.getRuntime().removeShutdownHook(continueOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs, or has run: the forks are continued either way
        }
        server.close();
        for (Seat s : seats.values()) {
            s.socket.close();
        }
    }

    /** One fork of the set, as its hello named it. */
    private final class Seat {
        final Socket socket;
        final BufferedReader in;
        final PrintWriter out;
        final String name;
        final List<Long> pids = new ArrayList<>();
        String pending;
        boolean gone;
        boolean frozen;

        Seat(Socket socket) throws IOException {
            this.socket = socket;
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.US_ASCII);
            socket.setSoTimeout(10_000);
            String[] hello = String.valueOf(in.readLine()).split(" ");
            if (hello.length != 4 || !hello[0].equals("hello")) {
                socket.close();
                throw new IOException("not a fork's hello: " + String.join(" ", hello));
            }
            name = hello[1];
            for (int i = 2; i < 4; i++) {
                long pid = Long.parseLong(hello[i]);
                if (pid > 0) {
                    pids.add(pid);
                }
            }
        }

        /**
         * Reads the fork's next line; true when it is {@code want}, else the fork leaves the set. {@code pending} keeps
         * an arriving fork's "ready settle" until its turn; every later line is answered where it is read.
         */
        boolean expect(String want, Duration bound, List<String> left) {
            pending = null;
            String line;
            try {
                socket.setSoTimeout((int) bound.toMillis());
                line = in.readLine();
            } catch (SocketTimeoutException e) {
                leave("said nothing for " + bound.toSeconds() + " s where '" + want + "' was due", left);
                return false;
            } catch (IOException e) {
                line = null;
            }
            if (line == null) {
                leave("its fork ended where '" + want + "' was due", left);
                return false;
            }
            if (!line.equals(want)) {
                leave("said '" + line + "' where '" + want + "' was due", left);
                return false;
            }
            pending = line;
            return true;
        }

        void leave(String why, List<String> left) {
            gone = true;
            left.add(name + ": " + why);
            resume();
            try {
                socket.close(); // its fork's next await fails, and its run ends
            } catch (IOException ignored) {
                // closed already
            }
        }

        synchronized void freeze() {
            if (!freeze || gone) {
                return;
            }
            frozen = Signals.send("STOP", pids);
            if (!frozen) {
                notStopped.merge(name, 1, Integer::sum);
            }
        }

        synchronized void resume() {
            if (frozen) {
                Signals.send("CONT", pids);
                frozen = false;
            }
        }
    }
}

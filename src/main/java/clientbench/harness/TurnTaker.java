package clientbench.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A fork's side of an interleaved set: every client's JVM is alive, and only the one holding the turn sends. The fork
 * asks for a turn before it warms up and before each measured window, and hands it back after; while it waits it sends
 * nothing, and the set's turn passer may stop it and its stub (SIGSTOP) until its next turn. One line per message:
 * {@code hello NAME PID STUB_PID}, {@code ready settle|window}, {@code go BLOCK}, {@code done}.
 */
public final class TurnTaker implements AutoCloseable {

    /** The fork property naming the turn passer's address, {@code 127.0.0.1:PORT}; absent: the fork runs alone. */
    public static final String PROPERTY = "clientbench.turns";

    private final Socket socket;
    private final BufferedReader in;
    private final PrintWriter out;
    private boolean held;

    private TurnTaker(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        this.out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.US_ASCII);
    }

    /** The turn of this fork's set as {@link #PROPERTY} names it, or null when the fork runs alone. */
    public static TurnTaker fromProperty(String name, long stubPid) throws IOException {
        String at = System.getProperty(PROPERTY, "");
        if (at.isBlank()) {
            return null;
        }
        int colon = at.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(PROPERTY + " must be HOST:PORT, was '" + at + "'");
        }
        Socket s = new Socket();
        s.connect(new InetSocketAddress(at.substring(0, colon), Integer.parseInt(at.substring(colon + 1))), 10_000);
        s.setTcpNoDelay(true);
        TurnTaker t = new TurnTaker(s);
        t.out.println("hello " + name + " " + ProcessHandle.current().pid() + " " + stubPid);
        return t;
    }

    /**
     * Waits for the turn, for warming up ({@code settle}) or for a measured window ({@code window}); returns the
     * block the turn passer gave it (0 for warming up).
     */
    public int await(String kind) {
        if (held) {
            throw new IllegalStateException("the turn is already held: hand it back first");
        }
        out.println("ready " + kind);
        try {
            String line = in.readLine();
            if (line == null || !line.startsWith("go ")) {
                throw new IllegalStateException("the set's turn passer said '" + line + "' where 'go BLOCK' was due");
            }
            held = true;
            return Integer.parseInt(line.substring(3).trim());
        } catch (IOException e) {
            throw new UncheckedIOException("the set's turn passer is gone", e);
        }
    }

    /** Hands the turn back: the fork sends nothing more until its next {@link #await}. */
    public void done() {
        if (held) {
            held = false;
            out.println("done");
        }
    }

    @Override
    public void close() throws IOException {
        done();
        socket.close();
    }
}

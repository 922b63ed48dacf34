package clientbench.interleave;

import clientbench.harness.TurnTaker;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A fork of an interleaved set in a JVM of its own, for {@link WaitingForksAndStubsAreStoppedTest}: it takes its turns
 * through {@link TurnTaker} (a settle, then {@code WINDOWS} windows) naming {@code STUB_PID} as its stub, prints
 * {@code holds NAME KIND BLOCK} when it holds one, and hands it back when its parent writes a line; it ends on one more.
 *
 *     TurnTakingFork NAME STUB_PID WINDOWS     (-Dclientbench.turns=HOST:PORT)
 */
public final class TurnTakingFork {

    private TurnTakingFork() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int windows = Integer.parseInt(args[2]);
        BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (TurnTaker turn = TurnTaker.fromProperty(name, Long.parseLong(args[1]))) {
            for (int w = 0; w <= windows; w++) {
                String kind = w == 0 ? "settle" : "window";
                int block = turn.await(kind);
                System.out.println("holds " + name + " " + kind + " " + block);
                System.out.flush();
                if (parent.readLine() == null) {
                    throw new IllegalStateException("the parent closed its side while " + name + " held the turn");
                }
                turn.done();
            }
        }
        // As a benchmark's teardown, after the turns: the turn passer may hold it stopped until the set ends.
        parent.readLine();
    }
}

package clientbench.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./bench startup} refuses bad input before it starts anything: one line naming the problem, its usage, exit 2. */
class StartupBadClientTest {

    record Result(int exit, List<String> err) {
    }

    static Result bench(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return new Result(Bench.dispatch(args), err.toString(StandardCharsets.UTF_8).lines().toList());
        } finally {
            System.setErr(saved);
        }
    }

    @Test
    void anUnknownClientGetsOneLineAndExit2() {
        for (String command : List.of("startup", "check")) {
            Result r = command.equals("check") ? bench("check", "startup", "--clients", "jdk,curl")
                    : bench("startup", "--clients", "jdk,curl");
            assertEquals(2, r.exit(), r.toString());
            assertTrue(r.err().get(0).startsWith("bench: unknown client 'curl'; valid: ahc, "), r.err().get(0));
            assertTrue(r.err().get(1).startsWith("Usage: startup"), "then its usage: " + r.err());
        }
    }

    @Test
    void noStartsIsRefused() {
        Result r = bench("startup", "--starts", "0");
        assertEquals(2, r.exit(), r.toString());
        assertEquals("bench: --starts must be 1 or more, was 0", r.err().get(0));
    }
}

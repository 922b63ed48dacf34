package clientbench.interleave;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Stops and continues processes this run started, by their pids, with the system's {@code kill}. */
final class Signals {

    private Signals() {
    }

    /** Sends {@code SIGNAL} (STOP, CONT) to {@code pids}; false when any could not be signalled. */
    static boolean send(String signal, List<Long> pids) {
        if (pids.isEmpty()) {
            return false;
        }
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> cmd.add(Long.toString(p)));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

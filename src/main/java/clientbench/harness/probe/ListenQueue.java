package clientbench.harness.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kernel's count of connections the accept queues refused ({@code ListenOverflows + ListenDrops},
 * /proc/net/netstat). A delta of 0 proves every listener in this network namespace, the stub's included, took every
 * connection; the counters are not per socket.
 */
public final class ListenQueue {

    private ListenQueue() {
    }

    /** Refused connections since boot, or -1 where the counters cannot be read. */
    public static long refused() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/net/netstat"));
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).startsWith("TcpExt:") && lines.get(i + 1).startsWith("TcpExt:")) {
                    List<String> names = List.of(lines.get(i).trim().split("\\s+"));
                    String[] values = lines.get(i + 1).trim().split("\\s+");
                    return Long.parseLong(values[names.indexOf("ListenOverflows")])
                            + Long.parseLong(values[names.indexOf("ListenDrops")]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a kernel without these counters
        }
        return -1;
    }
}

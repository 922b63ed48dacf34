package clientbench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Counts established TCP connections to a port on this machine, from the kernel's tables
 * ({@code /proc/net/tcp} and {@code tcp6}). With the stub on its own port for the trial, those are the
 * client's connections: how many it really opened, whatever its pool settings say.
 */
final class TcpConnections {
    private static final String ESTABLISHED = "01";

    private TcpConnections() {
    }

    /** -1 where the tables cannot be read (not Linux) or the port is unknown. */
    static long establishedTo(int port) {
        if (port <= 0) {
            return -1;
        }
        long n = 0;
        boolean read = false;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                List<String> lines = Files.readAllLines(Path.of(table));
                read = true;
                for (int i = 1; i < lines.size(); i++) {
                    String[] f = lines.get(i).trim().split("\\s+");
                    // f[2] is rem_address "HEXADDR:HEXPORT", f[3] the state
                    if (f.length > 3 && ESTABLISHED.equals(f[3])
                            && Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16) == port) {
                        n++;
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // this table is missing or unreadable; the other may do
            }
        }
        return read ? n : -1;
    }
}

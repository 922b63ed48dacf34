package clientbench.results;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Facts about the machine a run measured on, read from the system, never typed. */
public final class Environment {

    private Environment() {
    }

    static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("host", RunFolder.host());
        m.put("cpuModel", cpuModel());
        m.put("cpuCount", Runtime.getRuntime().availableProcessors());
        m.put("memoryBytes", totalMemory());
        m.put("os", System.getProperty("os.name"));
        m.put("kernel", System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("taskset", clientbench.harness.StubProcess.taskset() != null);
        return m;
    }

    static Map<String, Object> launcherJdk() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("home", System.getProperty("java.home"));
        m.put("version", System.getProperty("java.version"));
        m.put("vendor", System.getProperty("java.vendor"));
        m.put("vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        m.put("inputArguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        return m;
    }

    /** The host's CPU model, as /proc/cpuinfo names it (the architecture where there is none). */
    public static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String line : lines) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException ignored) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    private static long totalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }
}

package clientbench.jvm;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JDK that clientbench starts JVMs on: its {@code bin/java} and feature version ("25" for 25.0.1). The launcher
 * probes a JDK the same way and reads the same {@code jdk-flags.txt}, so shell- and Java-started JVMs get the same
 * flags.
 */
public record Jdk(Path java, int feature) {

    /** The oldest JDK clientbench builds and runs on; the launcher and the pom's enforcer say the same. */
    public static final int MIN_FEATURE = 21;
    /** Beside this class on the class path; in the repository under src/main/resources, where bench reads it. */
    static final String FLAGS_RESOURCE = "jdk-flags.txt";
    private static final String VERSION_PROPERTY = "java.specification.version = ";

    /**
     * Whether a JVM on this class path can write a class-data archive at exit (JDK 19+): only jars, and a writable
     * archive folder; otherwise the dump fails and the JVM exits 1 after its work, which JMH takes for a failed fork.
     */
    public static boolean canArchiveClasses(String classPath, Path archiveDir) {
        if (classPath == null || classPath.isBlank() || !Files.isDirectory(archiveDir) || !Files.isWritable(archiveDir)) {
            return false;
        }
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty() && !Files.isRegularFile(Path.of(entry))) {
                return false;
            }
        }
        return true;
    }

    /** The JDK this JVM runs on. */
    public static Jdk current() {
        return new Jdk(Path.of(System.getProperty("java.home"), "bin", "java"), Runtime.version().feature());
    }

    /**
     * The JDK installed at {@code home}, probed by running its java.
     *
     * @throws IllegalArgumentException when there is no java there or it is older than {@link #MIN_FEATURE}
     */
    public static Jdk at(Path home) throws IOException {
        Path java = home.resolve("bin").resolve("java");
        if (!Files.isExecutable(java)) {
            throw new IllegalArgumentException(home + ": no bin/java there");
        }
        Jdk current = current();
        int feature = java.toRealPath().equals(current.java().toRealPath()) ? current.feature() : probe(java);
        if (feature < MIN_FEATURE) {
            throw new IllegalArgumentException(home + " is Java " + feature + "; clientbench needs " + MIN_FEATURE + " or newer");
        }
        return new Jdk(java, feature);
    }

    private static int probe(Path java) throws IOException {
        Process proc = new ProcessBuilder(java.toString(), "-XshowSettings:properties", "-version")
                .redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                line = line.trim();
                if (line.startsWith(VERSION_PROPERTY)) {
                    String v = line.substring(VERSION_PROPERTY.length());
                    return Integer.parseInt(v.startsWith("1.") ? v.substring(2) : v);
                }
            }
        }
        throw new IllegalArgumentException(java + " did not report its version");
    }

    /** The flags of jdk-flags.txt that this JDK takes, in the file's order. */
    public List<String> flags() {
        return flags(feature);
    }

    /** The flags of jdk-flags.txt that a JDK of {@code feature} takes, in the file's order. */
    public static List<String> flags(int feature) {
        List<String> flags = new ArrayList<>();
        for (FlagLine f : FlagLine.ALL) {
            if (feature >= f.sinceFeature()) {
                flags.add(f.flag());
            }
        }
        return flags;
    }

    /** One line of jdk-flags.txt: a flag and the first feature version that takes it. */
    record FlagLine(int sinceFeature, String flag) {
        static final List<FlagLine> ALL = read();

        private static List<FlagLine> read() {
            try (InputStream in = Jdk.class.getResourceAsStream(FLAGS_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(FLAGS_RESOURCE + " is missing from the class path beside " + Jdk.class.getName());
                }
                return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        static List<FlagLine> parse(String text) {
            List<FlagLine> lines = new ArrayList<>();
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 2 || f[0].startsWith("#")) {
                    continue;
                }
                lines.add(new FlagLine(Integer.parseInt(f[0]), f[1]));
            }
            return List.copyOf(lines);
        }
    }
}

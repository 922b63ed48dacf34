package clientbench.upgrade;

import clientbench.jvm.MavenFailure;
import clientbench.api.LibraryVersion;
import clientbench.jvm.Jdk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.nio.file.StandardOpenOption;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The benchmark jar at one version of a client, in {@code target/upgrade/<client>-<version>/}: Maven's package with the
 * version property overridden and the build folder there, leaving target/ alone, the contract test run on the way. Kept
 * while sources, properties and JDK stay; the version is read from the jar, never taken from what was asked.
 */
public final class VersionJar {

    static final String JAR = "benchmarks.jar";
    static final String KEY = "key.sha256";
    static final String LOG = "build.log";
    private static final Duration TIMEOUT = Duration.ofMinutes(20);

    private VersionJar() {
    }

    /**
     * A jar built (or found): where it is, the version it holds for the client's artifact, and whether it was cached.
     */
    public record Built(ClientBuild build, Path jar, String version, boolean cached) {
    }

    /** A version that cannot be measured: one line naming it and the first failure. */
    public static final class Refused extends Exception {
        public Refused(ClientBuild b, String why, Path log) {
            super(b.words() + ": " + why + (log == null ? "" : " (Maven's log: " + log + ")"));
        }
    }

    /** Runs Maven with {@code args} from {@code root}, its output into {@code log}; returns its exit code. */
    public interface Maven {
        int run(List<String> args, Path log) throws IOException, InterruptedException;
    }

    /** Maven on PATH, on {@code jdk}, with the JVM flags the launcher gives it. */
    public static Maven maven(Jdk jdk) {
        return (args, log) -> {
            int exit = clientbench.jvm.Maven.run(args, jdk, log, TIMEOUT);
            if (exit == clientbench.jvm.Maven.TIMED_OUT) {
                Files.writeString(log, "[ERROR] the build took over " + TIMEOUT.toMinutes() + " minutes\n",
                        StandardOpenOption.APPEND);
            }
            return exit;
        };
    }

    /** Where the jar of {@code b} is built under the project {@code root}. */
    public static Path folder(Path root, ClientBuild b) {
        return root.toAbsolutePath().normalize().resolve("target").resolve("upgrade").resolve(b.folderName());
    }

    /**
     * The jar of {@code b}: the cached one while its key holds, else built now, the contract test included.
     * @throws Refused when Maven fails (the line says why), the contract test did not run, or the jar holds another
     *         version of the client's artifact than asked
     */
    public static Built of(ClientBuild b, Path root, Jdk jdk, Maven maven) throws IOException, InterruptedException, Refused {
        Path dir = folder(root, b);
        Path jar = dir.resolve(JAR);
        Path keyFile = dir.resolve(KEY);
        String key = key(root, b, jdk);
        if (Files.isRegularFile(jar) && Files.isRegularFile(keyFile) && Files.readString(keyFile).strip().equals(key)) {
            return new Built(b, jar, recorded(b, jar, null), true);
        }
        Files.createDirectories(dir);
        Files.deleteIfExists(keyFile); // a build that fails half way leaves no key
        Path log = dir.resolve(LOG);
        if (maven.run(args(root, b, dir), log) != 0) {
            throw new Refused(b, MavenFailure.why(Files.readAllLines(log, StandardCharsets.UTF_8)), log);
        }
        if (!Files.isRegularFile(jar)) {
            throw new Refused(b, "Maven succeeded but wrote no " + JAR + " in " + dir, log);
        }
        if (!contractRan(dir, b)) {
            throw new Refused(b, "its contract test " + b.contractTest() + " did not run", log);
        }
        String version = recorded(b, jar, log);
        Files.writeString(keyFile, key + "\n");
        return new Built(b, jar, version, false);
    }

    /** Maven's arguments: package into {@code dir}, the version properties set, the contract test alone run. */
    static List<String> args(Path root, ClientBuild b, Path dir) {
        List<String> a = new ArrayList<>(List.of("-B", "-ntp", "-Dstyle.color=never",
                "-f", root.toAbsolutePath().resolve("pom.xml").toString(), "-DbuildDirectory=" + dir));
        for (Map.Entry<String, String> p : b.properties().entrySet()) {
            a.add("-D" + p.getKey() + "=" + p.getValue());
        }
        a.add("-Dtest=" + b.contractTest());
        a.add("package");
        return a;
    }

    /** Whether Surefire's report of the contract test is in {@code dir} and counts at least one test. */
    static boolean contractRan(Path dir, ClientBuild b) throws IOException {
        Path report = dir.resolve("surefire-reports").resolve("TEST-clientbench.adapters." + b.contractTest() + ".xml");
        if (!Files.isRegularFile(report)) {
            return false;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<testsuite [^>]*tests=\"(\\d+)\"")
                .matcher(Files.readString(report));
        return m.find() && Integer.parseInt(m.group(1)) > 0;
    }

    /** The version of the client's artifact that {@code jar} was built with, checked against the one asked for. */
    private static String recorded(ClientBuild b, Path jar, Path log) throws IOException, Refused {
        String[] ga = b.artifact().split(":");
        String version = LibraryVersion.resolvedIn(jar, ga[0], ga[1]);
        if (version == null) {
            throw new Refused(b, jar + " does not list " + b.artifact() + " among its dependencies", log);
        }
        if (!version.equals(b.version())) {
            throw new Refused(b, "the build resolved " + b.artifact() + " " + version + ", not the version asked for", log);
        }
        return version;
    }

    /**
     * What the jar depends on: every source file's path and content (pom.xml, src/, server-stub/), the properties set,
     * the contract test and the JDK's feature version.
     */
    static String key(Path root, ClientBuild b, Jdk jdk) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path base = root.toAbsolutePath().normalize();
        List<Path> files = new ArrayList<>(List.of(Path.of("pom.xml")));
        for (String dir : List.of("src", "server-stub")) {
            if (Files.isDirectory(base.resolve(dir))) {
                Path real = base.resolve(dir).toRealPath(); // a folder linked in: its files, not the link
                try (Stream<Path> s = Files.walk(real)) {
                    s.filter(Files::isRegularFile).map(f -> Path.of(dir).resolve(real.relativize(f))).forEach(files::add);
                }
            }
        }
        files.sort(null);
        for (Path f : files) {
            sha.update((f + "\n").getBytes(StandardCharsets.UTF_8));
            sha.update(Files.readAllBytes(base.resolve(f)));
        }
        sha.update(("\n" + b.properties() + "\n" + b.contractTest() + "\njava " + jdk.feature()).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(sha.digest());
    }
}

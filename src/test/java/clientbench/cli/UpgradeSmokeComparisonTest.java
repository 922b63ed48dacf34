package clientbench.cli;

import clientbench.api.LibraryVersion;
import clientbench.harness.record.JsonFiles;
import clientbench.testkit.Prerequisites;
import clientbench.upgrade.ClientBuild;
import clientbench.upgrade.VersionJarCache;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ./bench upgrade} end to end: an A/A run of apache at the pom's version as a duet, two sets of one block of one
 * smoke-length shape (a set is a pair: a new JVM of each version), each version's JMH in its own JVM on its jar, the
 * three forks of a set taking turns; each fork records its
 * version, and the decision lands in summary.json, results.csv, upgrade.png and the terminal; every figure shows no
 * difference, as an A/A run must. No figure's value is asserted: the windows are a second long. Gated on thresholds
 * two pairs cannot resolve, it exits 3 with its summary written; a microsecond planted in the new version is recorded
 * in its forks alone, and every stub ran on the launcher's class path.
 */
@Tag("reliability") // needs target/benchmarks.jar: mvn verify (Failsafe), after mvn package
@Timeout(240)
@Order(Integer.MAX_VALUE) // among the longest reliability classes: last in the order, so started first (pom.xml)
class UpgradeSmokeComparisonTest {
    static final Path REPO = Path.of(System.getProperty("user.dir"));
    static final Path JAR = REPO.resolve("target").resolve("benchmarks.jar");
    static final Path PYTHON = REPO.resolve(".venv").resolve("bin").resolve("python");
    /** Behaviour (both versions at once), 6 forks and the report: about 3 minutes on a quiet host; this only ends a
     * hang, so it holds a host several times slower (CI's two cores shared with other builds). */
    static final long HANG_SECONDS = 600;

    @TempDir
    Path root;

    @Test
    void anAaRunAlternatesTheVersionsAndDecidesEachFiguresRatio() throws Exception {
        Prerequisites.require(Files.isExecutable(PYTHON), "the report's venv (./bench test makes it)");
        assertTrue(Files.isRegularFile(JAR), "runs after mvn package (Failsafe): " + JAR);
        for (String f : List.of("pom.xml", "src", "server-stub", "analysis", "analysis.ipynb")) {
            Files.createSymbolicLink(root.resolve(f), REPO.resolve(f));
        }
        String version = LibraryVersion.resolvedIn(JAR, "org.apache.httpcomponents.client5", "httpclient5");
        VersionJarCache.seed(ClientBuild.of("apache", version), root, JAR);

        // Figures only: a behaviour count near its bound can flip the mark between two JVMs of one version.
        Path gate = Files.writeString(root.resolve("gate.toml"), "[thresholds]\ncpu = \"5%\"\np50 = \"5%\"\n");
        List<String> cmd = ComparisonRunTest.java(root, true, JAR.toString(), Bench.class.getName(), "upgrade", "apache",
                version, version, "--profile", "smoke", "--shapes", "immediate-1000", "--rounds", "2", "--blocks", "1",
                // a gate two pairs cannot resolve (status 3 whatever the figures), and 1 us planted: the plumbing only
                "--gate", gate.toString(), "--summary",
                root.resolve("summary.md").toString(), "--plant-cpu-us", "1");
        Path out = root.resolve("out.txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(HANG_SECONDS, TimeUnit.SECONDS)) {
            ComparisonRunTest.endTree(p.toHandle());
            fail("still running after " + HANG_SECONDS + " s: " + Files.readString(out));
        }
        List<String> lines = Files.readAllLines(out);
        String all = String.join("\n", lines);
        assertEquals(3, p.exitValue(), "a gate two pairs cannot resolve: " + all);
        assertTrue(lines.get(lines.size() - 1).startsWith("gate: 3 (could not resolve): "), all);
        assertTrue(Files.readString(root.resolve("summary.md")).startsWith("## Upgrade gate: could not resolve"), all);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("foresee: ")), "foreseen before measuring: " + all);

        String old = "apache@" + version;
        String neu = old + "#2";
        assertEquals(2, lines.stream().filter(l -> l.equals("bench: apache " + version + ": cached; the jar holds"
                + " org.apache.httpcomponents.client5:httpclient5 " + version + " and passed ApacheAdapterContractTest")).count(), all);
        Path dir;
        try (var s = Files.list(root.resolve("results"))) {
            dir = s.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        // Each set: its three forks (old, noop, new) warmed up and then took turns, every block each of them once.
        JsonNode env = JsonFiles.MAPPER.readTree(dir.resolve("env.json").toFile());
        assertEquals(neu, env.path("upgrade").path("planted").path("label").asText(), env.path("upgrade").toString());
        assertEquals(1000, env.path("upgrade").path("planted").path("spinNanosPerRequest").asLong());
        JsonNode sets = env.path("sets");
        assertEquals(2, sets.size(), sets.toString());
        for (JsonNode set : sets) {
            assertEquals(Set.of(old, "noop", neu), names(set.path("warmupOrder")), set.toString());
            assertEquals(1, set.path("blockOrders").size(), set.toString());
            set.path("blockOrders").forEach(o -> assertEquals(Set.of(old, "noop", neu), names(o), set.toString()));
            assertEquals(0, set.path("left").size(), set.toString());
            assertEquals(0, set.path("notStopped").size(), set.toString());
        }
        int forksOfNew = 0;
        int stubs = 0;
        List<long[]> windows = new ArrayList<>();
        try (var s = Files.newDirectoryStream(dir, "*.trial.json")) {
            for (Path t : s) {
                JsonNode trial = JsonFiles.MAPPER.readTree(t.toFile());
                assertTrue(trial.path("interleaved").asBoolean(), t.toString());
                trial.path("iterations").forEach(it -> windows.add(new long[] {it.path("windowStartEpochMillis").asLong(),
                        it.path("windowStartEpochMillis").asLong() + it.path("windowNanos").asLong() / 1_000_000}));
                JsonNode settings = trial.path("settings");
                String stub = settings.path("stub").asText(); // noop's fork has none
                assertTrue(!stub.startsWith("own JVM") || stub.endsWith(", on the launcher's class path"), t + ": " + stub);
                stubs += stub.startsWith("own JVM") ? 1 : 0;
                // The plant is the new version's alone, and its record says so.
                assertEquals(trial.path("client").asText().equals(neu), settings.has("planted"), t + ": " + settings);
                if (trial.path("client").asText().equals(neu)) {
                    forksOfNew++;
                    assertEquals("apache", trial.path("params").path("client").asText());
                    assertEquals("org.apache.httpcomponents.client5:httpclient5:" + version,
                            trial.path("settings").path("library").asText());
                }
            }
        }
        assertEquals(2, forksOfNew, "one JVM of the new version a set");
        assertEquals(4, stubs, "a stub for each version's fork in each set");
        // JVMs of two jars took turns: no two windows of them, measured or not, overlap in time.
        windows.sort(java.util.Comparator.comparingLong(w -> w[0]));
        for (int i = 1; i < windows.size(); i++) {
            assertTrue(windows.get(i)[0] >= windows.get(i - 1)[1], "windows overlap: " + windows.get(i - 1)[0] + "-"
                    + windows.get(i - 1)[1] + " and " + windows.get(i)[0]);
        }

        JsonNode upgrade = JsonFiles.MAPPER.readTree(dir.resolve("summary.json").toFile()).path("upgrade");
        assertEquals(neu, upgrade.path("new").path("label").asText(), all);
        assertTrue(upgrade.path("figures").size() > 0, upgrade.toString());
        int together = upgrade.path("figuresTogether").asInt();
        double confidence = upgrade.path("confidence").asDouble();
        int twoRounds = 0;
        for (JsonNode f : upgrade.path("figures")) {
            // A round whose figure, net of noop's, is at or below the harness's own is left out of that figure.
            int rounds = f.path("rounds").asInt();
            assertTrue(rounds == 1 || rounds == 2, f.toString());
            if (rounds == 1) {
                assertEquals("too few rounds", f.path("verdict").asText(), f.toString());
                continue;
            }
            twoRounds++;
            assertNoDifference(f, together, confidence);
        }
        assertEquals(twoRounds, together, "the figures judged together are those with two pairs");
        assertEquals("blocks", upgrade.path("pairedBy").asText(), upgrade.toString());
        assertTrue(twoRounds > 0, upgrade.toString());
        assertTrue(Files.readAllLines(dir.resolve("results.csv")).get(0).contains("upgrade.cpu.verdict"));
        assertTrue(Files.size(dir.resolve("upgrade.png")) > 0);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("upgrade apache " + version + " -> " + version + " (")), all);
        // The behaviour cases ran on each version's jar: each side's JVM loaded the library the jar holds.
        JsonNode behaviour = upgrade.path("behaviour");
        String library = "org.apache.httpcomponents.client5:httpclient5:" + version;
        assertTrue(behaviour.path("cases").asInt() > 0, behaviour.toString());
        assertEquals(Set.of(library), names(behaviour.path("library").path("old")), behaviour.toString());
        assertEquals(Set.of(library), names(behaviour.path("library").path("new")), behaviour.toString());
    }

    private static Set<String> names(JsonNode array) {
        Set<String> out = new java.util.HashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The family-wise error the A/A figures are held to: chance makes any of them differ once in a million runs. */
    static final double AA_ERROR = 1e-6;

    /**
     * One version against itself differs in no figure. At the run's own 95% chance alone says "differs" in up to 1 run
     * of 20, so each interval is widened to {@link #AA_ERROR} (two rounds: Student's t with 1 degree of freedom, whose
     * quantile is tan(pi (p - 1/2))) and must hold 1; and the verdict must be the one its own interval gives.
     */
    static void assertNoDifference(JsonNode f, int together, double confidence) {
        double ratio = f.path("ratio").asDouble();
        double half = Math.log(f.path("high").asDouble() / ratio);
        double asRun = tQuantileOneDf(1 - (1 - confidence) / together / 2);
        double strict = half * tQuantileOneDf(1 - AA_ERROR / together / 2) / asRun;
        assertTrue(Math.abs(Math.log(ratio)) <= strict, "one version against itself differs: " + f);
        boolean excludesOne = f.path("low").asDouble() > 1 || f.path("high").asDouble() < 1;
        assertEquals(excludesOne, !"no difference detected".equals(f.path("verdict").asText()), "the verdict is its interval's: " + f);
    }

    static double tQuantileOneDf(double p) {
        return Math.tan(Math.PI * (p - 0.5));
    }
}

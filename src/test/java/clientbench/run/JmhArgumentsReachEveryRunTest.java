package clientbench.run;

import clientbench.jvm.Jdk;
import clientbench.plan.JmhArgs;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.Options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arguments after {@code ./bench --} reach every run's JMH options: {@code -jvmArgs} after the forks' own flags, not
 * instead; {@code -rf}/{@code -rff} one file for the whole run, not one per run overwritten; {@code -p} over the
 * shape's values, each checked by the record that will hold it before anything runs.
 */
class JmhArgumentsReachEveryRunTest {
    @TempDir
    Path runDir;

    static RunPlan plan(String... jmhArgs) throws Exception {
        return new RunPlan(Profile.named("quick"), List.of("jdk"), null, JmhArgs.parse(List.of(jmhArgs)), Jdk.current());
    }

    static Options firstRun(RunPlan plan, List<String> forkJvmArgs) {
        return RunOptions.of(plan, plan.profile().shapes().get(0), "jdk", forkJvmArgs);
    }

    @Test
    void jvmArgsAreAppendedToTheForksOwnFlags() throws Exception {
        RunPlan plan = plan("-jvmArgs", "-Xmx2g -Dclientbench.mark=1");
        List<String> fork = RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), runDir);

        List<String> expected = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError"));
        expected.addAll(Jdk.current().flags());
        expected.addAll(List.of("-Xmx2g", "-Dclientbench.mark=1", "-Dclientbench.hlog.dir=" + runDir.toAbsolutePath()));
        assertEquals(expected, fork, "ours, then the user's (the last -Xmx wins), then where the .hlog files go");
        List<String> perRun = new ArrayList<>(expected);
        // No class-data archive here: the tests' class path holds target/classes, and a JVM with a directory on its
        // class path fails the archive's dump and exits 1 (Jdk.canArchiveClasses; ComparisonRunTest's forks).
        assertFalse(RunOptions.classDataSharing(plan), System.getProperty("java.class.path"));
        perRun.add("-Dclientbench.shape=" + plan.profile().shapes().get(0).name()); // the fork's trial record names its shape
        perRun.add("-Dclientbench.round=1"); // and the round it runs in
        assertEquals(perRun, List.copyOf(firstRun(plan, fork).getJvmArgs().get()), "what the fork gets");
    }

    @Test
    void aForkOnJarsAloneGetsAClassDataArchiveOfItsClientsOwn() throws Exception {
        RunPlan plan = plan();
        List<String> fork = RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), runDir);
        String saved = System.getProperty("java.class.path");
        Path jar = java.nio.file.Files.createFile(runDir.resolve("benchmarks.jar"));
        System.setProperty("java.class.path", jar.toString());
        try {
            Path cds = RunOptions.classDataDir(plan);
            List<String> got = RunOptions.withClassDataSharing(plan, "okhttp", fork);
            assertEquals(List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + cds.resolve("okhttp.jsa"),
                    "-Dclientbench.cds=" + cds), got.subList(fork.size(), got.size()));
        } finally {
            System.setProperty("java.class.path", saved);
        }
    }

    @Test
    void classDataSharingTheUserSetsIsNotOverridden() throws Exception {
        RunPlan plan = plan("-jvmArgs", "-Xshare:off");
        List<String> fork = RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), runDir);
        String saved = System.getProperty("java.class.path");
        System.setProperty("java.class.path", java.nio.file.Files.createFile(runDir.resolve("benchmarks.jar")).toString());
        try { // on jars alone the fork would get an archive (the test above): the user's -Xshare wins
            List<String> got = List.copyOf(firstRun(plan, fork).getJvmArgs().get());
            assertTrue(got.contains("-Xshare:off"), got.toString());
            assertTrue(got.stream().noneMatch(a -> a.contains("SharedArchive") || a.startsWith("-Dclientbench.cds")), got.toString());
        } finally {
            System.setProperty("java.class.path", saved);
        }
    }

    @Test
    void onlyJarsAndAWritableFolderMakeAnArchive() throws Exception {
        Path jar = java.nio.file.Files.createFile(runDir.resolve("a.jar"));
        Path classes = java.nio.file.Files.createDirectories(runDir.resolve("classes"));
        java.nio.file.Files.createFile(classes.resolve("A.class"));
        Path cds = java.nio.file.Files.createDirectories(runDir.resolve("cds"));
        assertTrue(Jdk.canArchiveClasses(jar.toString(), cds));
        assertFalse(Jdk.canArchiveClasses(jar + java.io.File.pathSeparator + classes, cds), "a non-empty directory");
        assertFalse(Jdk.canArchiveClasses(jar.toString(), runDir.resolve("missing")), "no folder to write to");
        assertFalse(Jdk.canArchiveClasses("", cds));
    }

    @Test
    void withoutJvmArgsTheForksGetOursAlone() throws Exception {
        RunPlan plan = plan();
        List<String> fork = RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), runDir);
        assertEquals(3 + Jdk.current().flags().size() + 1, fork.size(), fork.toString());
    }

    @Test
    void aResultFormatIsWrittenOnceForTheWholeRunNotPerRun() throws Exception {
        RunPlan plan = plan("-rf", "csv", "-foe", "true");
        Options perRun = firstRun(plan, List.of());
        assertFalse(perRun.getResultFormat().hasValue(), "a run writes no jmh-result file of its own");
        assertFalse(perRun.getResult().hasValue());
        assertTrue(perRun.shouldFailOnError().get(), "the other arguments still reach the run");
        assertEquals(ResultFormatType.CSV, plan.jmh().resultFormat());
        assertEquals(runDir.resolve("jmh-result.csv"), plan.jmh().resultFile(runDir), "-rf alone: in the run's folder");
    }

    @Test
    void aResultFileGoesWhereRffSays() throws Exception {
        Path file = runDir.resolve("elsewhere.json");
        for (RunPlan plan : List.of(plan("-rf", "json", "-rff", file.toString()), plan("-rff", file.toString(), "-rf", "json"))) {
            assertFalse(firstRun(plan, List.of()).getResult().hasValue());
            assertEquals(file, plan.jmh().resultFile(runDir));
            assertEquals(ResultFormatType.JSON, plan.jmh().resultFormat());
        }
        assertNull(plan().jmh().resultFile(runDir), "nothing asked, nothing written beyond results.json and results.csv");
    }

    @Test
    void aParameterGivenWinsOverTheShapes() throws Exception {
        RunPlan plan = plan("-p", "rate=123");
        Options run = firstRun(plan, List.of());
        assertEquals(List.of("123"), List.copyOf(run.getParameter("rate").get()));
        assertEquals(List.of("jdk"), List.copyOf(run.getParameter("client").get()), "the shape's and the run's own still set");
    }

    @Test
    void parametersAreCheckedByTheRecordsThatHoldThem() {
        // The messages are TrialSpec's and LoadSpec's own: the rules live there, not here.
        assertRejected("rate must be > 0", "-p", "rate=0");
        assertRejected("rate must be a number", "-p", "rate=fast");
        assertRejected("concurrency must be > 0", "-p", "concurrency=0");
        assertRejected("connections must be > 0", "-p", "connections=0");
        assertRejected("delayMs must be >= 0", "-p", "delayMs=-1");
        assertRejected("bytes must be >= 0", "-p", "bytes=-5");
        assertRejected("requestBytes must be >= 0", "-p", "requestBytes=-1");
        assertRejected("timeoutMs must be > 0", "-p", "timeoutMs=0");
        assertRejected("unknown protocol 'http3'", "-p", "protocol=http3");
        assertRejected("unknown backpressure 'shove'", "-p", "backpressure=shove");
        assertRejected("unknown client 'curl'", "-p", "client=curl");
    }

    static void assertRejected(String message, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JmhArgs.parse(List.of(args)));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}

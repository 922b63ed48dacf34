package clientbench.run;

import clientbench.harness.record.JsonFiles;
import clientbench.harness.Trial;
import clientbench.interleave.TurnPasser;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import clientbench.results.RunFolder;
import org.openjdk.jmh.results.RunResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One round of an interleaved shape: every client's fork (and noop's) alive at once, each warmed up alone, then
 * the shape's blocks, each giving every fork one measured window in a new order ({@link TurnPasser}). Each fork is one
 * JMH run whose measured iterations are its windows; the set is the round its results carry.
 */
final class InterleavedSet {

    private InterleavedSet() {
    }

    /**
     * How a step's JMH run starts in a set: its forks given the set's turn passer ({@code turns}), its output into
     * {@code log}.
     */
    interface Member {
        Collection<RunResult> run(Schedule.Step step, String turns, OutputStream log) throws Exception;
    }

    /** The steps of one set (one shape, one round), each started by {@code member}; returns each step as it ran. */
    static List<Ran> run(List<Schedule.Step> steps, Member member, PrintStream jmhLog, Path dir,
                                       PrintStream out, Random random, List<Map<String, Object>> records)
            throws IOException, InterruptedException {
        Shape shape = steps.get(0).shape();
        int round = steps.get(0).round();
        List<Path> before = RunFolder.trialFiles(dir);
        Map<String, ByteArrayOutputStream> logs = new LinkedHashMap<>();
        Map<String, Future<Collection<RunResult>>> runs = new LinkedHashMap<>();
        Map<String, Object> record;
        ExecutorService pool = Executors.newFixedThreadPool(steps.size(), r -> {
            Thread t = new Thread(r, "clientbench-set-run");
            t.setDaemon(true);
            return t;
        });
        try (JmhRuns.Lock lock = JmhRuns.lock(); TurnPasser passer = new TurnPasser(true)) {
            for (Schedule.Step step : steps) {
                ByteArrayOutputStream log = new ByteArrayOutputStream();
                logs.put(step.client(), log);
                runs.put(step.client(), pool.submit(() -> member.run(step, passer.address(), log)));
            }
            out.printf("[set %d/%d %s] %d JVMs, %d blocks%n", round, shape.rounds(), shape.name(), steps.size(),
                    shape.blocks());
            record = passer.passTurns(steps.stream().map(Schedule.Step::client).toList(), shape.blocks(), random,
                    client -> runs.get(client).isDone(), what -> out.printf("[set %d/%d %s] %s%n", round, shape.rounds(),
                            shape.name(), what));
        } catch (org.openjdk.jmh.runner.RunnerException e) {
            throw new IOException(e.getMessage(), e);
        } finally {
            pool.shutdown();
        }
        List<Path> files = new ArrayList<>(RunFolder.trialFiles(dir));
        files.removeAll(before);
        Map<String, List<Path>> byClient = byClient(files);
        List<Ran> ran = new ArrayList<>();
        for (Schedule.Step step : steps) {
            Collection<RunResult> r;
            String failure = "";
            try {
                r = runs.get(step.client()).get();
            } catch (ExecutionException e) {
                r = List.of();
                failure = String.valueOf(e.getCause());
            }
            jmhLog.write(logs.get(step.client()).toByteArray());
            String log = logs.get(step.client()).toString(StandardCharsets.UTF_8) + failure;
            List<Path> own = byClient.getOrDefault(step.client(), List.of());
            ran.add(r.isEmpty() ? new Ran(step, null, own, FailureReason.of(log))
                    : new Ran(step, r.iterator().next(), own, ""));
        }
        record.put("shape", shape.name());
        record.put("set", round);
        records.add(record);
        return ran;
    }

    /** The set's trial files (records and logs) by the client their record names: file names hold a hash, not it. */
    private static Map<String, List<Path>> byClient(List<Path> files) {
        Map<String, List<Path>> out = new LinkedHashMap<>();
        for (Path f : files) {
            Path record = f.getFileName().toString().endsWith(".hlog") ? Trial.recordFile(f) : f;
            try {
                String client = JsonFiles.MAPPER.readTree(record.toFile()).path("client").asText();
                out.computeIfAbsent(client, c -> new ArrayList<>()).add(f);
            } catch (IOException e) {
                // a record a failed fork left half-written: no client's
            }
        }
        return out;
    }
}

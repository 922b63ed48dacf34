package clientbench.behaviour;

import clientbench.adapters.Adapters;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.record.Thresholds;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The main class of one client's JVM ({@code CLIENT IO_THREADS [CASE...]}): runs its cases, each on stubs and adapters
 * of its own, and prints their results as one JSON line after {@link #LINE_PREFIX}. The cases that mostly wait run side
 * by side (judged by counts, or by times far from any bound the others' load could reach), then the busy ones alone.
 */
public final class BehaviourProbe {

    /** What the results' line starts with: a client may print on standard output too. */
    public static final String LINE_PREFIX = "clientbench-behaviour ";

    private BehaviourProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: BehaviourProbe CLIENT IO_THREADS [CASE...]");
            System.exit(2);
        }
        Map<String, CaseResult> results;
        try {
            results = run(args[0], Integer.parseInt(args[1]), List.of(args).subList(2, args.length));
        } catch (IllegalArgumentException e) { // an unknown client: one line, the valid ones in it
            System.err.println("behaviour: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println(LINE_PREFIX + JsonFiles.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(results));
        System.out.flush();
        System.exit(0); // every case closed its adapters (the contract); a leftover thread must not keep the JVM
    }

    /** Runs the named cases (all when none is named), at once; each result by the case's key, in the cases' order. */
    static Map<String, CaseResult> run(String client, int ioThreads, List<String> only) throws Exception {
        Adapters.type(client); // an unknown client fails here, naming the valid ones
        List<BehaviourCase> cases = BehaviourCases.all().stream()
                .filter(c -> only.isEmpty() || only.contains(c.key())).toList();
        Map<String, Future<CaseResult>> running = new LinkedHashMap<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("case-", 0).factory())) {
            for (BehaviourCase c : cases) {
                if (!c.busy()) {
                    running.put(c.key(), threads.submit(() -> one(client, ioThreads, c)));
                }
            }
        } // the cases that mostly wait, at once; then the busy ones, one at a time
        Map<String, CaseResult> done = new LinkedHashMap<>();
        for (Map.Entry<String, Future<CaseResult>> e : running.entrySet()) {
            done.put(e.getKey(), e.getValue().get());
        }
        for (BehaviourCase c : cases) {
            if (c.busy()) {
                done.put(c.key(), one(client, ioThreads, c));
            }
        }
        Map<String, CaseResult> out = new LinkedHashMap<>();
        cases.forEach(c -> out.put(c.key(), done.get(c.key())));
        return out;
    }

    /** One case, its failure kept as its result. */
    static CaseResult one(String client, int ioThreads, BehaviourCase theCase) {
        return one(new CaseContext(client, theCase, ioThreads), theCase);
    }

    /** One case in {@code context}, its failure kept as its result. */
    static CaseResult one(CaseContext context, BehaviourCase theCase) {
        long start = System.nanoTime();
        Map<String, Object> figures = null;
        String notApplicable = null;
        String failure = null;
        try (context) {
            figures = theCase.run(context);
        } catch (BehaviourCase.NotApplicable e) {
            notApplicable = e.getMessage();
        } catch (Exception | Error e) {
            failure = e.toString();
        }
        return new CaseResult(theCase.tuning().label(), Thresholds.behaviourRevision(theCase.key()),
                (System.nanoTime() - start) / 1e6, figures, notApplicable, failure, context.settings());
    }
}

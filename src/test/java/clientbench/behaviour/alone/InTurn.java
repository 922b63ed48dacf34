package clientbench.behaviour.alone;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The HTTP/2 cases' load, for a library called directly: callers at once, each sending its requests in turn, as the
 * cases' callers do; what the callers saw, by outcome.
 */
final class InTurn {

    /** One request, keyed for the stub's count, sent and waited for (bounded): its status, or the failure's class. */
    interface Send {
        String send(String key) throws Exception;
    }

    private InTurn() {
    }

    /** {@code callers} x {@code perCaller} requests, keyed {@code prefix + caller + "-" + j}; outcomes counted. */
    static Map<String, Integer> run(int callers, int perCaller, String prefix, Send send) throws Exception {
        List<Future<List<String>>> running = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < callers; i++) {
                int caller = i;
                running.add(threads.submit(() -> {
                    List<String> seen = new ArrayList<>();
                    for (int j = 0; j < perCaller; j++) {
                        String outcome;
                        try {
                            outcome = send.send(prefix + caller + "-" + j);
                        } catch (Exception e) {
                            outcome = failure(e);
                        }
                        seen.add(outcome);
                    }
                    return seen;
                }));
            }
        }
        Map<String, Integer> out = new TreeMap<>();
        for (Future<List<String>> f : running) {
            f.get().forEach(o -> out.merge(o, 1, Integer::sum));
        }
        return out;
    }

    /** A failure by the class of its innermost cause that is not an ExecutionException or CompletionException. */
    static String failure(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.util.concurrent.ExecutionException || t instanceof java.util.concurrent.CompletionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName();
    }

    /** Requests that did not end ok: any outcome but a 200 ("200", or "200:" and the body's length). */
    static int failed(Map<String, Integer> outcomes) {
        return outcomes.entrySet().stream().filter(e -> !e.getKey().matches("200(:.*)?")).mapToInt(Map.Entry::getValue)
                .sum();
    }
}

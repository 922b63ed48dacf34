package clientbench.run;

import clientbench.results.Rounds;
import org.openjdk.jmh.results.RunResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the runs so far make: JMH's results, one per (shape, client) with each round a fork of it ({@link Rounds});
 * env.json's runs entries; and each failed run's "shape/client: round 1/3: why", which the report reads.
 */
record Collected(List<RunResult> all, List<Map<String, Object>> runs, List<String> failed) {

    static Collected of(List<Ran> ran) {
        List<RunResult> all = new ArrayList<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Ran r : ran) {
            if (r.result() == null) {
                failed.add(r.step().shape().name() + "/" + r.step().client() + ": " + r.step().roundWords() + ": " + r.failure());
                continue;
            }
            all.add(r.result());
            runs.add(describe(r));
        }
        Rounds.merge(all, runs);
        return new Collected(all, runs, failed);
    }

    /** env.json's runs entry: the shape, client, benchmark, round and JMH's params of one result. */
    private static Map<String, Object> describe(Ran r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shape", r.step().shape().name());
        m.put("client", r.step().client());
        m.put("benchmark", r.step().shape().benchmark());
        m.put("round", r.step().round());
        Map<String, String> params = new LinkedHashMap<>();
        r.result().getParams().getParamsKeys().forEach(k -> params.put(k, r.result().getParams().getParam(k)));
        m.put("params", params);
        return m;
    }
}

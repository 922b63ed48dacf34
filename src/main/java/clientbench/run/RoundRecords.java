package clientbench.run;

import clientbench.plan.Schedule;
import clientbench.results.RunConditions;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rounds as they ran: the runs by round, each round's facts judged against the others' ({@link RoundChecks}), and
 * env.json's {@code rounds}: per round its facts and flags, its clients' order, what the host did, and its repeat.
 */
final class RoundRecords {

    private RoundRecords() {
    }

    /** The runs by round: "shape\tround" to the round's runs, in the order they ran. */
    static Map<String, List<Ran>> byRound(List<Ran> ran) {
        Map<String, List<Ran>> byRound = new LinkedHashMap<>();
        ran.forEach(r -> byRound.computeIfAbsent(r.step().shape().name() + "\t" + r.step().round(), k -> new ArrayList<>()).add(r));
        return byRound;
    }

    /** Each round's facts ({@link RoundChecks#read}), judged against every other round's. */
    static List<RoundChecks.Facts> judged(Map<String, List<Ran>> byRound) throws IOException {
        List<RoundChecks.Facts> facts = new ArrayList<>();
        for (List<Ran> round : byRound.values()) {
            Schedule.Step s = round.get(0).step();
            facts.add(RoundChecks.read(s.shape().name(), s.round(), Repeats.files(round)));
        }
        return facts.stream().map(f -> RoundChecks.flag(f, facts)).toList();
    }

    /** env.json's {@code rounds} of the runs so far, none repeated yet (before a look). */
    static List<Map<String, Object>> of(List<Ran> ran, RunConditions conditions) throws IOException {
        Map<String, List<Ran>> byRound = byRound(ran);
        return of(judged(byRound), byRound, List.of(), conditions);
    }

    /** env.json's {@code rounds}: per round its facts and flags, its clients' order, and its repeat where it had one. */
    static List<Map<String, Object>> of(List<RoundChecks.Facts> judged, Map<String, List<Ran>> byRound,
                                        List<Repeats.Repeat> repeats, RunConditions conditions) {
        List<Map<String, Object>> records = new ArrayList<>();
        for (RoundChecks.Facts f : judged) {
            Map<String, Object> m = new LinkedHashMap<>(f.toJson());
            m.put("order", byRound.get(f.shape() + "\t" + f.round()).stream().map(r -> r.step().client()).toList());
            m.put("host", conditions.round(f.shape(), f.round()));
            repeats.stream().filter(r -> r.first().equals(f)).findFirst().ifPresent(r -> {
                Map<String, Object> again = new LinkedHashMap<>();
                again.put("facts", r.again() == null ? null : r.again().toJson());
                again.put("stands", r.stands());
                again.put("why", r.why());
                m.put("repeat", again);
            });
            records.add(m);
        }
        return records;
    }
}

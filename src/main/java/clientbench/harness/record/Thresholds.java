package clientbench.harness.record;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The numbers every judgment rests on (the SLO, the validity flags, the JIT's warm-up share, the verdict's
 * confidence), read from {@code clientbench/thresholds.json}: one data file that the harness and the report's
 * Python (analysis/load.py) both read, so the two can never disagree on a bound.
 */
public final class Thresholds {

    /** Where the file lives on the class path and, from the repository's root, in the sources. */
    public static final String RESOURCE = "clientbench/thresholds.json";

    private static final JsonNode ROOT = read();

    public static final double SLO_OK_SHARE = number("slo", "okShare");
    public static final double SLO_LATENCY_P99_MILLIS = number("slo", "latencyP99Millis");
    public static final double GENERATOR_CPU_SHARE = number("flags", "generatorCpuShare");
    public static final double LAG_SHARE_OF_LATENCY = number("flags", "lagShareOfLatency");
    public static final long LAG_FLOOR_MICROS = (long) number("flags", "lagFloorMicros");
    public static final double STUB_CPU_SHARE = number("flags", "stubCpuShare");
    public static final double STEAL_SHARE = number("flags", "stealShare");
    public static final double UNSTEADY_SPREAD = number("flags", "unsteadySpread");
    public static final long MIN_SAMPLES = (long) number("flags", "minSamples");
    public static final double JIT_WARMING_SHARE = number("jitWarmingShare");
    public static final double STEADY_JIT_SHARE = number("steady", "jitShare");
    public static final double STEADY_P50_CHANGE = number("steady", "p50Change");
    public static final double ROUND_STEAL_SHARE = number("verdict", "roundStealShare");
    public static final double NOOP_SLOW_FACTOR = number("verdict", "noopSlowFactor");
    /** How long past its deadline a behaviour case waits for a request's timeout to fire before counting it unfired. */
    public static final long DEADLINE_LATE_MILLIS = (long) number("behaviour", "deadlineLateMillis");

    private Thresholds() {
    }

    /** The ratio within which two clients are alike on a figure of the verdict (alikeWithin: "p50" -> 1.10). */
    public static double alikeWithin(String figure) {
        return number("alikeWithin", figure);
    }

    /** A behaviour case's revision (behaviourRevisions; 1 where not listed), recorded with its results. */
    public static int behaviourRevision(String caseKey) {
        return ROOT.path("behaviourRevisions").path(caseKey).asInt(1);
    }

    /** The whole file, for the run's record (summary.json's definitions). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> asMap() {
        return JsonFiles.MAPPER.convertValue(ROOT, Map.class);
    }

    private static JsonNode read() {
        try (InputStream in = Thresholds.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path: the build is broken");
            }
            return JsonFiles.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    private static double number(String... path) {
        JsonNode n = ROOT;
        for (String key : path) {
            n = n.path(key);
        }
        if (!n.isNumber()) {
            throw new IllegalStateException(RESOURCE + ": " + String.join(".", path) + " is missing or not a number");
        }
        return n.asDouble();
    }
}

package clientbench.harness.record;

import clientbench.harness.LoadGenerator;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The .hlog holds microseconds and says so, its Interval_Max reads in milliseconds (the ratio HdrHistogram's
 * tools expect), and HdrHistogram's own reader gets back what was recorded, over the window's times.
 */
class HlogFileTest {

    @TempDir
    Path dir;

    @Test
    void aKnownLatencyReadsBackInMicrosecondsAndItsIntervalMaxInMilliseconds() throws Exception {
        Histogram latency = LoadGenerator.newHistogram();
        latency.recordValueWithCount(1_234, 99);
        latency.recordValue(56_789); // the max: 56.789 ms
        Histogram service = LoadGenerator.newHistogram();
        service.recordValueWithCount(800, 100);
        long startMillis = 1_700_000_000_000L;
        IterationSnapshot s = new IterationSnapshot(true, Double.NaN, 2_000_000_000L, startMillis, 100, 100, 0, 0,
                new long[clientbench.api.Outcome.values().length], 0, 0, latency, latency.copy(), service, service.copy(),
                0, 0, 0, -1, -1, -1, -1, -1, Probes.NONE);
        Path file = dir.resolve("t.hlog");
        try (HlogFile log = new HlogFile(file, "clientbench test")) {
            log.write(s);
        }

        String text = Files.readString(file);
        assertTrue(text.contains(HlogFile.UNITS), text);
        String latencyLine = text.lines().filter(l -> l.startsWith("Tag=latency,")).findFirst().orElseThrow();
        // Tag=latency,start,length,Interval_Max,histogram
        assertEquals(56.789, Double.parseDouble(latencyLine.split(",")[3]), 0.1, latencyLine);
        assertEquals(2.0, Double.parseDouble(latencyLine.split(",")[2]), 0.001, latencyLine);

        Map<String, Histogram> byTag = new HashMap<>();
        HistogramLogReader reader = new HistogramLogReader(file.toFile());
        for (Histogram h; (h = (Histogram) reader.nextIntervalHistogram()) != null; ) {
            byTag.put(h.getTag(), h);
        }
        assertEquals(List.of("lag", "latency", "latency.ok", "service").stream().sorted().toList(),
                byTag.keySet().stream().sorted().toList());
        Histogram back = byTag.get("latency");
        assertEquals(100, back.getTotalCount());
        assertTrue(back.valuesAreEquivalent(1_234, back.getValueAtPercentile(50)), "p50 " + back.getValueAtPercentile(50));
        assertTrue(back.valuesAreEquivalent(56_789, back.getMaxValue()), "max " + back.getMaxValue());
        assertEquals(startMillis, back.getStartTimeStamp(), 1, "the interval starts at the window's first send");
        assertEquals(startMillis + 2_000, back.getEndTimeStamp(), 1);
    }
}

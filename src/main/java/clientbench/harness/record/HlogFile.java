package clientbench.harness.record;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.Deflater;

/**
 * One trial's interval histograms in HdrHistogram's log format, one per measured iteration, in microseconds: latency,
 * latency.ok, service, lag (closed model: service, service.ok). Interval_Max has a unit ratio of 1000, reading in ms as
 * HdrHistogram's tools assume. Written as .part, renamed on close: a failed trial leaves no half log.
 */
public final class HlogFile implements AutoCloseable {

    /** Values are microseconds; Interval_Max is divided by this, so it reads in milliseconds. */
    public static final double MAX_VALUE_UNIT_RATIO = 1000.0;
    /** The tag of latency from the intended start (open model); a closed loop logs service time instead. */
    public static final String LATENCY_TAG = "latency";
    static final String UNITS = "values in microseconds; Interval_Max in milliseconds (max value unit ratio 1000)";

    private final Path target;
    private final Path part;
    private final HistogramLogWriter writer;
    /** The log's BaseTime: interval start times are written relative to it, as readers expect. */
    private final long baseMillis;
    private boolean closed;

    public HlogFile(Path target, String comment) {
        this.target = target;
        this.part = target.resolveSibling(target.getFileName() + ".part");
        try {
            Files.createDirectories(target.toAbsolutePath().getParent());
            this.writer = new HistogramLogWriter(part.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + part, e);
        }
        writer.outputComment(UNITS);
        writer.outputComment(comment);
        writer.outputLogFormatVersion();
        long now = System.currentTimeMillis();
        this.baseMillis = now;
        writer.setBaseTime(now);
        writer.outputBaseTime(now);
        writer.outputStartTime(now);
        writer.outputLegend();
    }

    public void write(IterationSnapshot s) {
        double startSeconds = (s.windowStartEpochMillis() - baseMillis) / 1e3;
        double endSeconds = startSeconds + s.windowNanos() / 1e9;
        String latency = s.openModel() ? LATENCY_TAG : "service";
        write(latency, s.latency(), startSeconds, endSeconds);
        write(latency + ".ok", s.latencyOk(), startSeconds, endSeconds);
        if (s.openModel()) {
            write("service", s.service(), startSeconds, endSeconds);
            write("lag", s.lag(), startSeconds, endSeconds);
        }
    }

    /**
     * Encodes a warm-up's histograms as {@link #write} would and writes nothing: the encoder's code compiles in the
     * warm-up, not in the background of the first measured windows, which measure the client's JIT, not the log's.
     */
    public void rehearse(IterationSnapshot s) {
        for (Histogram h : s.openModel() ? List.of(s.latency(), s.latencyOk(), s.service(), s.lag())
                : List.of(s.latency(), s.latencyOk())) {
            Histogram copy = h.copy();
            ByteBuffer buffer = ByteBuffer.allocate(copy.getNeededByteBufferCapacity());
            copy.encodeIntoCompressedByteBuffer(buffer, Deflater.DEFAULT_COMPRESSION);
        }
    }

    private void write(String tag, Histogram h, double startSeconds, double endSeconds) {
        Histogram copy = h.copy();
        copy.setTag(tag);
        writer.outputIntervalHistogram(startSeconds, endSeconds, copy, MAX_VALUE_UNIT_RATIO);
    }

    public Path path() {
        return target;
    }

    /**
     * Every interval tagged {@code tag} in the log at {@code hlog} merged into one histogram, as the analysis merges
     * them; null where the log holds none. Values in microseconds.
     */
    public static Histogram merged(Path hlog, String tag) throws IOException {
        Histogram all = null;
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                if (tag.equals(h.getTag()) && h instanceof Histogram interval) {
                    if (all == null) {
                        all = new Histogram(interval.getNumberOfSignificantValueDigits());
                    }
                    all.add(interval);
                }
            }
        }
        return all;
    }

    /** Finishes the log and moves it into place. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writer.close();
        try {
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + part + " to " + target, e);
        }
    }

    /** Drops the half-written log. */
    public void discard() {
        if (!closed) {
            closed = true;
            writer.close();
            try {
                Files.deleteIfExists(part);
            } catch (IOException ignored) {
                // nothing more to do
            }
        }
    }

}

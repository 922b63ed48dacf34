package clientbench.harness;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * One trial's interval histograms in HdrHistogram's log format, tagged {@code latency}, {@code service}
 * and {@code lag}, one interval per measured iteration. Written to a {@code .part} file and renamed
 * into place on close, so a failed trial never leaves a half-written log under the final name.
 */
public final class HlogFile implements AutoCloseable {

    private final Path target;
    private final Path part;
    private final HistogramLogWriter writer;
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
        writer.outputComment(comment);
        writer.outputLogFormatVersion();
        long now = System.currentTimeMillis();
        writer.setBaseTime(now);
        writer.outputBaseTime(now);
        writer.outputStartTime(now);
        writer.outputLegend();
    }

    public void write(IterationSnapshot s) {
        write(s.openModel() ? "latency" : "service", s.latency());
        if (s.openModel()) {
            write("service", s.service());
            write("lag", s.lag());
        }
    }

    private void write(String tag, Histogram h) {
        Histogram copy = h.copy();
        copy.setTag(tag);
        writer.outputIntervalHistogram(copy);
    }

    public Path path() {
        return target;
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

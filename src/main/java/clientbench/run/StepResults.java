package clientbench.run;

import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The results an upgrade's step JVM hands back to the run that started it ({@link VersionArms}): JMH's results,
 * serialized into a file ({@link RunResult} is {@link java.io.Serializable}).
 */
public final class StepResults {

    private StepResults() {
    }

    public static void write(Path file, List<RunResult> results) throws IOException {
        try (OutputStream o = Files.newOutputStream(file); ObjectOutputStream s = new ObjectOutputStream(o)) {
            s.writeObject(results);
        }
    }

    /** The results a step's JVM wrote; only JMH's, the JDK's and clientbench's classes are read back. */
    @SuppressWarnings("unchecked")
    static List<RunResult> read(Path file) throws IOException {
        try (InputStream i = Files.newInputStream(file); ObjectInputStream s = new ObjectInputStream(i)) {
            s.setObjectInputFilter(ObjectInputFilter.Config.createFilter("java.**;org.openjdk.jmh.**;clientbench.**;!*"));
            return (List<RunResult>) s.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }
}

package clientbench.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * {@code ./bench --version}: clientbench's version, from the build (the pom's, filtered into
 * version.properties), and the JDK this runs on. The launcher prints the same two lines from the pom when
 * there is no jar yet.
 */
final class Version implements CommandLine.IVersionProvider {

    static String clientbench() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown (no version.properties: not built by Maven)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String jdk() {
        return "JDK " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ") "
                + System.getProperty("java.home");
    }

    static String text() {
        return String.join(System.lineSeparator(), getLines()) + System.lineSeparator();
    }

    private static String[] getLines() {
        return new String[] {"clientbench " + clientbench(), jdk()};
    }

    @Override
    public String[] getVersion() {
        return getLines();
    }
}

package clientbench.jvm;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why Maven failed, in a few words from its log (a version jar's build, a footprint's resolution): the first artifact it could not resolve,
 * the first compile error (the adapter's, or the tests'), the enforcer's first upper-bound conflict, or the first
 * failing case of the contract test; else Maven's first error line.
 */
public final class MavenFailure {

    private static final Pattern UNRESOLVED = Pattern.compile(
            "(?:could not be resolved|Could not find artifact|Failure to find)\\s*:?\\s*([\\w.-]+:[\\w.-]+(?::[\\w.-]+){1,3})");
    private static final Pattern COMPILE = Pattern.compile("(\\S+\\.java):\\[(\\d+)(?:,\\d+)?] (.+)");
    private static final Pattern UPPER_BOUND = Pattern.compile("Require upper bound dependencies error for (\\S+)");
    private static final Pattern TEST_CASE = Pattern.compile("^ {2,}(\\S.*)");

    private MavenFailure() {
    }

    /**
     * javac's details of the error {@code line} ("symbol: class X", or "required: ..., found: ..."), which Maven prints
     * with it once more at the end; "" when absent.
     */
    private static String symbol(List<String> errors, String line) {
        for (int i = errors.lastIndexOf(line) + 1; i > 0 && i < errors.size(); i++) {
            String detail = errors.get(i).strip();
            if (detail.startsWith("symbol:") || detail.startsWith("required:") || detail.startsWith("found:")) {
                List<String> details = new java.util.ArrayList<>(List.of(detail.replaceAll("\\s+", " ")));
                for (int j = i + 1; j < errors.size() && errors.get(j).strip().startsWith("found:"); j++) {
                    details.add(errors.get(j).strip().replaceAll("\\s+", " "));
                }
                return " (" + String.join(", ", details) + ")";
            }
            if (!detail.startsWith("location:")) {
                return "";
            }
        }
        return "";
    }

    /**
     * "A:1.8.21 comes through X:4.12.0, older than the 1.9.10 that Y:3.6.0 asks for", from the enforcer's paths to
     * {@code resolved} (each a list of "+-group:artifact:version" lines, "and" between them, "]" after the last).
     */
    private static String upperBound(String resolved, List<String> rest) {
        String ga = resolved.substring(0, resolved.lastIndexOf(':'));
        String version = resolved.substring(resolved.lastIndexOf(':') + 1);
        String brings = null;
        String asks = null;
        String parent = null;
        for (String line : rest) {
            String t = line.strip();
            if (t.startsWith("]") || t.startsWith("Require upper bound")) {
                break;
            }
            if (!t.startsWith("+-")) {
                continue;
            }
            String coordinates = t.substring(2).split(" ")[0];
            if (coordinates.startsWith(ga + ":")) {
                String v = coordinates.substring(ga.length() + 1);
                if (v.equals(version) && brings == null) {
                    brings = parent;
                } else if (!v.equals(version) && asks == null) {
                    asks = parent + " asks for " + v;
                }
            }
            parent = coordinates;
        }
        return ga + " resolves to " + version + (brings == null ? "" : " (through " + brings + ")")
                + (asks == null ? ", older than a library asks for" : ", but " + asks);
    }

    /** The reason in Maven's log {@code lines}, as a phrase ("the adapter does not compile against it: ..."). */
    public static String why(List<String> lines) {
        List<String> errors = lines.stream().map(Maven::uncoloured).filter(l -> l.startsWith("[ERROR]"))
                .map(l -> l.substring("[ERROR]".length()).stripTrailing()).toList();
        for (String e : errors) {
            Matcher m = UNRESOLVED.matcher(e);
            if (m.find()) {
                return "Maven cannot resolve " + m.group(1) + (e.contains("absent") || e.contains("not found")
                        || e.contains("Could not find") ? " (the registry does not serve it)" : "");
            }
        }
        for (int i = 0; i < errors.size(); i++) {
            Matcher m = COMPILE.matcher(errors.get(i).strip());
            if (m.matches()) {
                String file = m.group(1);
                String where = file.substring(file.lastIndexOf('/') + 1) + ":" + m.group(2);
                return (file.contains("/src/test/") ? "the tests do not compile against it: " : "the adapter does not"
                        + " compile against it: ") + where + ": " + m.group(3).strip() + symbol(errors, errors.get(i));
            }
        }
        for (int i = 0; i < errors.size(); i++) {
            Matcher m = UPPER_BOUND.matcher(errors.get(i));
            if (m.find()) {
                return "the pom's upper-bound rule (maven-enforcer) refuses it: " + upperBound(m.group(1), errors.subList(i + 1, errors.size()));
            }
        }
        boolean listing = false;
        for (String e : errors) {
            if (e.strip().equals("Failures:") || e.strip().equals("Errors:")) {
                listing = true;
                continue;
            }
            Matcher m = TEST_CASE.matcher(e);
            if (listing && m.matches()) { // with reruns the case's name comes first, then "Run 1: <why>"
                return "its contract test fails: " + m.group(1).strip().replaceFirst("^Run 1: ", "");
            }
        }
        return errors.stream().map(String::strip).filter(e -> !e.isEmpty()).findFirst()
                .map(e -> "Maven failed: " + e)
                .orElse("Maven failed without an error line");
    }
}

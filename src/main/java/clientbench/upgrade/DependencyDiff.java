package clientbench.upgrade;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which measured clients a team's dependency bump moves, read from its build files at two revisions: every
 * {@code pom.xml} and every Gradle version catalog ({@code *.versions.toml}) tracked at the new one.
 */
public final class DependencyDiff {

    private static final String POM = "pom.xml";
    private static final String CATALOG = ".versions.toml";

    private DependencyDiff() {
    }

    /**
     * What moved, measured on default clients, and one line for each other change:
     * {@code com.fasterxml.jackson.core:jackson-databind 2.18.0 -> 2.19.0: no measured client runs on it}; {@code
     * unresolved}, those of its lines that may hide a measured bump (a build file not read, a measured client's version
     * not resolved here), which a check cannot call passed.
     */
    public record Found(List<Bump> measured, List<String> notMeasured, List<String> unresolved) {
        public Found {
            measured = List.copyOf(measured);
            notMeasured = List.copyOf(notMeasured);
            unresolved = List.copyOf(unresolved);
        }
    }

    /**
     * The bumps between two revisions of a git repository: each build file found at {@code head} that {@code base}
     * has too, read with {@code git show REV:PATH}; a build file that cannot be read is a line in notMeasured.
     * @throws IllegalArgumentException when {@code repo} is no git repository or a revision is not in it (the line
     *         names which)
     */
    public static Found between(Path repo, String base, String head) throws IOException, InterruptedException {
        GitRevisions git = new GitRevisions(repo);
        String baseCommit = git.commit(revision(base));
        String headCommit = git.commit(revision(head));
        Set<String> atBase = new HashSet<>(git.files(baseCommit));
        List<String> headFiles = git.files(headCommit);
        Set<String> atHead = new HashSet<>(headFiles);
        List<Declared.Change> changes = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        for (String path : headFiles) {
            if (isBuildFile(path) && atBase.contains(path)) {
                try {
                    Declared old = read(git, baseCommit, base + ":" + path, path, atBase);
                    changes.addAll(old.changesTo(read(git, headCommit, head + ":" + path, path, atHead)));
                } catch (IllegalArgumentException e) {
                    // a template named pom.xml: the others still count; one that changed may hide a bump
                    if (!git.show(baseCommit, path).equals(git.show(headCommit, path))) {
                        unread.add(e.getMessage().replace('\n', ' '));
                    }
                }
            }
        }
        return MeasuredClients.found(changes, unread);
    }

    /**
     * The bumps between two versions of one build file, two poms or two Gradle version catalogs, read alone: a pom's
     * parent is not looked for.
     * @throws IllegalArgumentException when one is a catalog and the other not, or one cannot be read as what it is
     */
    public static Found between(Path oldFile, Path newFile) throws IOException {
        boolean catalog = oldFile.toString().endsWith(".toml");
        if (catalog != newFile.toString().endsWith(".toml")) {
            throw new IllegalArgumentException(oldFile + " and " + newFile + " are not the same kind of build file:"
                    + " give two poms or two version catalogs (.toml)");
        }
        Declared old = catalog ? CatalogVersions.of(Files.readString(oldFile), oldFile.toString())
                : PomVersions.of(Files.readString(oldFile), oldFile.toString(), null);
        Declared now = catalog ? CatalogVersions.of(Files.readString(newFile), newFile.toString())
                : PomVersions.of(Files.readString(newFile), newFile.toString(), null);
        return MeasuredClients.found(old.changesTo(now), List.of());
    }

    /**
     * {@code BASE..HEAD} as its two revisions.
     * @throws IllegalArgumentException for anything but two revisions separated by {@code ..} (three dots too)
     */
    public static String[] range(String range) {
        int dots = range == null ? -1 : range.indexOf("..");
        if (dots < 0 || range.indexOf("..", dots + 2) >= 0) {
            throw new IllegalArgumentException("'" + range + "' is not BASE..HEAD, two revisions separated by '..'");
        }
        try {
            return new String[] {revision(range.substring(0, dots)), revision(range.substring(dots + 2))};
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + range + "' is not BASE..HEAD: " + e.getMessage());
        }
    }

    /** {@code r}, if it can be a revision git reads as one and never as an option. */
    private static String revision(String r) {
        if (r == null || r.isEmpty() || r.startsWith("-") || r.startsWith(".") || r.endsWith(".")
                || r.chars().anyMatch(c -> Character.isWhitespace(c) || c == ':')) {
            throw new IllegalArgumentException("'" + r + "' is not a revision (empty, or starts with '-' or '.', ends"
                    + " with '.', or holds a space or ':')");
        }
        return r;
    }

    private static boolean isBuildFile(String path) {
        return path.equals(POM) || path.endsWith("/" + POM) || path.endsWith(CATALOG);
    }

    /**
     * The versions in {@code path} at {@code commit} ({@code name} in messages); a pom with its parent's properties
     * when the parent is among the {@code tracked} files.
     */
    private static Declared read(GitRevisions git, String commit, String name, String path, Set<String> tracked)
            throws IOException, InterruptedException {
        String text = git.show(commit, path);
        if (path.endsWith(CATALOG)) {
            return CatalogVersions.of(text, name);
        }
        String parent = PomVersions.parentPath(text, name, path);
        return PomVersions.of(text, name, tracked.contains(parent) ? git.show(commit, parent) : null);
    }
}

package clientbench.upgrade;

import clientbench.jvm.OutputLines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Files of a git repository at a revision, read with the git on PATH ({@code git -C REPO show REV:PATH}). */
final class GitRevisions {

    private static final long TIMEOUT_SECONDS = 60;

    private final Path repo;

    /** @throws IllegalArgumentException when {@code repo} is no git repository (the line names it and git's reason) */
    GitRevisions(Path repo) throws IOException, InterruptedException {
        this.repo = repo.toAbsolutePath().normalize();
        if (!Files.isDirectory(this.repo)) {
            throw new IllegalArgumentException(repo + " is not a git repository: no such folder");
        }
        Result r = git("rev-parse", "--git-dir");
        if (r.exit != 0) {
            throw new IllegalArgumentException(repo + " is not a git repository: " + r.firstError());
        }
    }

    /** The commit {@code revision} names in this repository. */
    String commit(String revision) throws IOException, InterruptedException {
        Result r = git("rev-parse", "--verify", "--quiet", revision + "^{commit}");
        if (r.exit != 0) {
            throw new IllegalArgumentException("no revision '" + revision + "' in " + repo);
        }
        return r.out.strip();
    }

    /** Every file tracked at {@code commit}, by its path from the repository's top, whatever folder it was given. */
    List<String> files(String commit) throws IOException, InterruptedException {
        Result r = checked(git("ls-tree", "-r", "--full-tree", "--name-only", "-z", commit), "ls-tree " + commit);
        return Arrays.stream(r.out.split("\0")).filter(s -> !s.isEmpty()).toList();
    }

    /** The content of {@code path} at {@code commit}. */
    String show(String commit, String path) throws IOException, InterruptedException {
        return checked(git("show", commit + ":" + path), "show " + commit + ":" + path).out;
    }

    private record Result(int exit, String out, List<String> err) {
        String firstError() {
            return err.stream().filter(l -> !l.isBlank()).findFirst().orElse("git exited with " + exit);
        }
    }

    private Result checked(Result r, String what) {
        if (r.exit != 0) {
            throw new IllegalArgumentException("git " + what + " in " + repo + " failed: " + r.firstError());
        }
        return r;
    }

    private Result git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        List<String> err = Collections.synchronizedList(new ArrayList<>());
        Thread stderr = OutputLines.drain(p.getErrorStream(), err::add, "git-stderr");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("git " + String.join(" ", args) + " in " + repo + " took over " + TIMEOUT_SECONDS
                    + " s");
        }
        stderr.join();
        return new Result(p.exitValue(), out, List.copyOf(err));
    }
}

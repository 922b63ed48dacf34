package clientbench.startup;

import clientbench.adapters.Adapters;
import clientbench.jvm.ClientJvm;
import clientbench.jvm.Jdk;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a startup run does: {@code starts} per client and condition, {@code noop} added last as the baseline; the first
 * {@code archiveStarts} rounds also start each client with its archive (none without {@code archiveDir}), the first
 * {@code requestStarts} send {@code requestsAfterFirst} more. A probe JVM past {@code bound} is killed.
 */
public record StartupPlan(List<String> clients, int starts, Jdk jdk, String classPath, Path archiveDir,
                          int requestsAfterFirst, Duration bound, long seed, String mainClass, int archiveStarts,
                          int requestStarts) {

    public static final int DEFAULT_STARTS = 10;
    public static final int REQUESTS_AFTER_FIRST = 10_000;
    /** Well past a start on a busy machine (a few seconds) and the probe's own 60 s budget for its requests. */
    public static final Duration BOUND = Duration.ofSeconds(120);

    public StartupPlan {
        List<String> all = new ArrayList<>();
        for (String c : clients) {
            if (!Adapters.NOOP.equals(c) && !Adapters.isClient(c)) {
                throw new IllegalArgumentException("unknown client '" + c + "'; valid: " + String.join(", ", Adapters.all()));
            }
            if (!all.contains(c)) {
                all.add(c);
            }
        }
        if (!all.contains(Adapters.NOOP)) {
            all.add(Adapters.NOOP);
        }
        clients = List.copyOf(all);
        if (starts < 1) {
            throw new IllegalArgumentException("starts must be >= 1, was " + starts);
        }
        if (archiveStarts < 0 || archiveStarts > starts || requestStarts < 0 || requestStarts > starts) {
            throw new IllegalArgumentException("archiveStarts and requestStarts must be 0 to starts, were "
                    + archiveStarts + " and " + requestStarts);
        }
        if (requestsAfterFirst < 0) {
            throw new IllegalArgumentException("requestsAfterFirst must be >= 0, was " + requestsAfterFirst);
        }
        Objects.requireNonNull(jdk, "jdk");
        Objects.requireNonNull(classPath, "classPath");
        Objects.requireNonNull(bound, "bound");
        Objects.requireNonNull(mainClass, "mainClass");
    }

    /**
     * The defaults on this JVM's class path: starts with each client's archive under {@code root}'s target/cds/ where
     * the forks get one ({@link ClientJvm#canArchive}), a seed of its own.
     */
    public static StartupPlan of(List<String> clients, int starts, Jdk jdk, Path root) {
        String classPath = System.getProperty("java.class.path");
        Path dir = ClientJvm.archiveDir(root, jdk);
        return new StartupPlan(clients, starts, jdk, classPath, ClientJvm.canArchive(jdk, classPath, dir) ? dir : null,
                REQUESTS_AFTER_FIRST, BOUND, ThreadLocalRandom.current().nextLong(), StartupProbe.class.getName(), starts,
                starts);
    }

    /** Only the first {@code archive} rounds with archives too, and the first {@code requests} with more requests. */
    public StartupPlan withShares(int archive, int requests) {
        return new StartupPlan(clients, starts, jdk, classPath, archiveDir, requestsAfterFirst, bound, seed, mainClass,
                archive, requests);
    }

    public StartupPlan withRequestsAfterFirst(int n) {
        return new StartupPlan(clients, starts, jdk, classPath, archiveDir, n, bound, seed, mainClass, archiveStarts,
                requestStarts);
    }

    public StartupPlan withBound(Duration d) {
        return new StartupPlan(clients, starts, jdk, classPath, archiveDir, requestsAfterFirst, d, seed, mainClass,
                archiveStarts, requestStarts);
    }

    public StartupPlan withMainClass(String name) {
        return new StartupPlan(clients, starts, jdk, classPath, archiveDir, requestsAfterFirst, bound, seed, name,
                archiveStarts, requestStarts);
    }

    /** The conditions a client starts in in round {@code round}: without its archive, and with it where there is one. */
    List<Boolean> conditions(int round) {
        return archiveDir == null || round > archiveStarts ? List.of(false) : List.of(false, true);
    }

    /** The requests after the first in round {@code round}. */
    int requestsIn(int round) {
        return round <= requestStarts ? requestsAfterFirst : 0;
    }

    /** The probe JVM's command line for one start. */
    List<String> command(String client, boolean cds, String target, int ioThreads) {
        return command(client, cds, target, ioThreads, requestsAfterFirst);
    }

    /** As {@link #command(String, boolean, String, int)}, with {@code requests} after the first. */
    List<String> command(String client, boolean cds, String target, int ioThreads, int requests) {
        List<String> cmd = new ArrayList<>(List.of(jdk.java().toString()));
        cmd.addAll(ClientJvm.args(jdk));
        if (cds) {
            cmd.addAll(ClientJvm.archiveArgs(archiveDir, client));
        }
        cmd.addAll(List.of("-cp", classPath, mainClass, client, target, Integer.toString(requests),
                Integer.toString(ioThreads)));
        return cmd;
    }
}

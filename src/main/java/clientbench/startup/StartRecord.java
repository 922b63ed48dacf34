package clientbench.startup;

import java.util.List;

/**
 * One start of a client's JVM, as {@code startup.json} keeps it: a start whose first request failed, or whose JVM
 * crashed or was killed, is kept with the reason. A figure the start did not reach is null.
 *
 * @param round the round it ran in, from 1 (every client once per round, and once more with its archive)
 * @param order its place in the round, from 1
 * @param cds whether it ran with the client's own class-data archive
 * @param cdsArchiveUsed with {@code cds}: whether the JVM used the archive: it was there before the start, the JVM did
 *                       not say it was unable to use it, nor wrote it again at exit; null without {@code cds} or killed
 * @param cdsLog with {@code cds}: what the JVM logged about class data sharing (its warnings and errors), at most 5
 * @param ok whether the first request succeeded
 * @param failure why not: the client's build, the first request, a JVM that exited without a report or was killed
 * @param startToFirstResponseMs from just before the JVM's process was started to the first response's completion
 * @param buildMs the client's build through its adapter, inside the probe JVM
 * @param firstRequestMs from the first send to its outcome
 * @param classesLoaded classes the JVM had loaded just after the first response
 * @param afterFirst the JVM at rest just after the first response
 * @param requests the requests after the first, one at a time
 * @param afterRequests the JVM at rest after them
 * @param stubRequests requests the stub answered during the start, by the stub's own count (0 for {@code noop})
 * @param pid the probe JVM's process id
 * @param exitCode its exit status; null when it was killed
 * @param wallMs the probe JVM's life, from its start to its end or kill
 */
public record StartRecord(int round, int order, boolean cds, Boolean cdsArchiveUsed, List<String> cdsLog, boolean ok, String failure,
                          Double startToFirstResponseMs, Double buildMs, Double firstRequestMs, Long classesLoaded,
                          JvmAtRest afterFirst, ProbeReport.Requests requests, JvmAtRest afterRequests,
                          Long stubRequests, long pid, Integer exitCode, double wallMs) {

    static StartRecord of(int round, int order, boolean cds, Boolean cdsArchiveUsed, ProbeJvm.Ended e, Long stubRequests) {
        ProbeReport r = e.report();
        if (r == null) {
            return new StartRecord(round, order, cds, cdsArchiveUsed, cdsLog(cds, e), false, e.problem(), null, null, null, null,
                    null, null, null, stubRequests, e.pid(), e.exitCode(), e.wallMs());
        }
        Double toFirst = r.firstResponseEpochMicros() == null ? null
                : (r.firstResponseEpochMicros() - e.launchEpochMicros()) / 1e3;
        return new StartRecord(round, order, cds, cdsArchiveUsed, cdsLog(cds, e), r.failure() == null, r.failure(), toFirst,
                r.buildMs(), r.firstRequestMs(), r.classesLoaded(), r.afterFirst(), r.requests(), r.afterRequests(),
                stubRequests, e.pid(), e.exitCode(), e.wallMs());
    }

    private static List<String> cdsLog(boolean cds, ProbeJvm.Ended e) {
        return cds ? e.cdsLog() : null;
    }
}

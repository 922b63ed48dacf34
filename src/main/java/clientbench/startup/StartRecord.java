package clientbench.startup;

import java.util.List;

/**
 * One start of a client's JVM as startup.json keeps it: one whose first request failed, or whose JVM crashed or was
 * killed, is kept with the reason; figures not reached are null. {@code cdsArchiveUsed}: the archive existed, and the
 * JVM neither refused nor rewrote it; {@code startToFirstResponseMs} runs from just before the process started.
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

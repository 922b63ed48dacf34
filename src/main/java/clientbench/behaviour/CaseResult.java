package clientbench.behaviour;

import java.util.Map;

/**
 * One case as one client went through it: {@code figures} when it ran to its end; else {@code notApplicable} (why the
 * client cannot take part) or {@code failure} (what went wrong, a result too); the client's settings as the live
 * client ended up, under the case's tuning; the case's revision as the JVM that ran it defines it (its jar's).
 */
public record CaseResult(String tuning, int revision, double wallMs, Map<String, Object> figures, String notApplicable,
                         String failure, Map<String, String> settings) {
}

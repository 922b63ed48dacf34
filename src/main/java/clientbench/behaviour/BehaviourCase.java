package clientbench.behaviour;

import clientbench.api.Tuning;

import java.util.Map;

/**
 * One misbehaviour a client is run through: short, bounded, and judged by counts or by times far from any bound a busy
 * machine could reach. Its figures are facts; whether they are what a team wants is decided in the analysis, from
 * thresholds.json.
 */
interface BehaviourCase {

    /** The case's name in behaviour.json and in every table: API. */
    String key();

    /** What the client runs with in this case. */
    Tuning tuning();

    /**
     * True for a case that keeps the CPU busy (hundreds of requests, or of connections): it runs alone, after the cases
     * that mostly wait, so that none of them slows another's requests.
     */
    default boolean busy() {
        return false;
    }

    /** What it provokes, in a line, for behaviour.json's definitions. */
    String provokes();

    /**
     * Runs the case; the figures as JSON values (counts, milliseconds, maps of counts by outcome class).
     * @throws NotApplicable when the client cannot take part (it refuses the protocol), with why
     */
    Map<String, Object> run(CaseContext c) throws Exception;

    /** A client that cannot take part in a case: HTTP/2 cases for a client without HTTP/2. */
    final class NotApplicable extends Exception {
        NotApplicable(String why) {
            super(why);
        }
    }
}

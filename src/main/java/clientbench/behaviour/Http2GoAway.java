package clientbench.behaviour;

import clientbench.api.Tuning;

import java.util.Map;

/**
 * HTTP/2 (h2c) to a server sending a GOAWAY at every {@value #GOAWAY_EVERY}th stream of a connection (the refused
 * stream unprocessed, safe to send again), its stream limit the usual 100, far above the {@value #CALLERS} callers:
 * {@value #PER_CALLER} requests each in turn. Reached when the stub sent a GOAWAY; then the failures callers saw.
 */
final class Http2GoAway implements BehaviourCase {

    static final int GOAWAY_EVERY = 20;
    static final int CALLERS = 10;
    static final int PER_CALLER = 100;

    @Override
    public String key() {
        return "h2-goaway";
    }

    @Override
    public boolean busy() {
        return true;
    }

    @Override
    public Tuning tuning() {
        return Tuning.AS_SHIPPED;
    }

    @Override
    public String provokes() {
        return "h2c to a server sending a GOAWAY at every " + GOAWAY_EVERY + "th stream of a connection; " + CALLERS
                + " callers, " + PER_CALLER + " requests each in turn";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        Map<String, Object> f = Http2Callers.run(c, c.stub(), "/?goAwayEvery=" + GOAWAY_EVERY, CALLERS, PER_CALLER);
        f.put("goAwayEvery", GOAWAY_EVERY);
        return f;
    }
}

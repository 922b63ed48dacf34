package clientbench.behaviour;

import clientbench.api.Tuning;
import clientbench.stub.StubOptions;

import java.util.Map;

/**
 * HTTP/2 (h2c) to a server allowing {@value #STREAMS} streams at once on a connection, and no GOAWAY:
 * {@value #CALLERS} callers, {@value #PER_CALLER} requests each in turn. Reached when the stub saw {@value #STREAMS}
 * streams open at once on one connection; then the failures callers saw (a client must queue, or open another
 * connection, past the limit).
 */
final class Http2StreamLimit implements BehaviourCase {

    static final int STREAMS = 10;
    static final int CALLERS = 30;
    static final int PER_CALLER = 30;

    @Override
    public String key() {
        return "h2-streams";
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
        return "h2c to a server allowing " + STREAMS + " concurrent streams on a connection; " + CALLERS + " callers, "
                + PER_CALLER + " requests each in turn";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        Map<String, Object> f = Http2Callers.run(c, c.stub(new StubOptions("127.0.0.1", 0, 1, false, false, STREAMS)),
                "/?bytes=5", CALLERS, PER_CALLER);
        f.put("streamLimit", STREAMS);
        return f;
    }
}

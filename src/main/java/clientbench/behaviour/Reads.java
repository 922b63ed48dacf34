package clientbench.behaviour;

import clientbench.stub.StubServer;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** How many times the stub read the requests of one kind: in all, and how many of them more than once. */
final class Reads {

    private Reads() {
    }

    /**
     * {@code <name>Reads}: heads read; {@code <name>SentTwice}: logical requests sent twice or more, each read or refused
     * as it came after the stub's FIN.
     */
    static Map<String, Object> of(StubServer stub, String keyPrefix, String name) {
        Map<String, Integer> read = stub.seen(keyPrefix);
        Map<String, Integer> sends = new HashMap<>(read);
        stub.seenAfterFin(keyPrefix).forEach((k, n) -> sends.merge(k, n, Integer::sum));
        Map<String, Object> f = new LinkedHashMap<>();
        f.put(name + "Reads", read.values().stream().mapToInt(Integer::intValue).sum());
        f.put(name + "SentTwice", sends.values().stream().filter(n -> n > 1).count());
        return f;
    }

    /**
     * With {@link #of}, what the server's close met: {@code <name>SentOnClosed}, logical requests sent on a connection
     * after the stub's FIN; {@code <name>RaceClosed}, those whose connection the idle race closed as they arrived.
     */
    static Map<String, Object> closes(StubServer stub, String keyPrefix, String name) {
        Map<String, Object> f = of(stub, keyPrefix, name);
        f.put(name + "SentOnClosed", stub.seenAfterFin(keyPrefix).size());
        f.put(name + "RaceClosed", stub.seenRaceClosed(keyPrefix).size());
        return f;
    }
}

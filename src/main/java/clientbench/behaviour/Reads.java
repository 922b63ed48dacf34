package clientbench.behaviour;

import clientbench.stub.StubServer;

import java.util.LinkedHashMap;
import java.util.Map;

/** How many times the stub read the requests of one kind: in all, and how many of them more than once. */
final class Reads {

    private Reads() {
    }

    /** {@code <name>Reads}: heads read; {@code <name>SentTwice}: logical requests read twice or more. */
    static Map<String, Object> of(StubServer stub, String keyPrefix, String name) {
        Map<String, Integer> seen = stub.seen(keyPrefix);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put(name + "Reads", seen.values().stream().mapToInt(Integer::intValue).sum());
        f.put(name + "SentTwice", seen.values().stream().filter(n -> n > 1).count());
        return f;
    }
}

package clientbench.stub;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many times each idempotency key was counted: at most {@value #MAX_KEYS} distinct keys are kept, beyond them a new
 * key is only counted in {@link #untracked()}, so a client sending endless keys cannot grow the stub's memory.
 */
final class KeyCounts {

    static final int MAX_KEYS = 100_000;

    private final ConcurrentHashMap<String, AtomicInteger> keys = new ConcurrentHashMap<>();
    private final LongAdder untracked = new LongAdder();

    /** Counts {@code key} once more; null (no key) is not counted. */
    void count(String key) {
        if (key == null) {
            return;
        }
        AtomicInteger n = keys.get(key);
        if (n == null && keys.size() >= MAX_KEYS) {
            untracked.increment();
            return;
        }
        (n != null ? n : keys.computeIfAbsent(key, k -> new AtomicInteger())).incrementAndGet();
    }

    /** The count of each key starting with {@code prefix}, by key. */
    Map<String, Integer> seen(String prefix) {
        Map<String, Integer> out = new TreeMap<>();
        keys.forEach((k, n) -> {
            if (k.startsWith(prefix)) {
                out.put(k, n.get());
            }
        });
        return out;
    }

    long size() {
        return keys.size();
    }

    long untracked() {
        return untracked.sum();
    }
}

package clientbench.harness;

import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;

import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * A client scripted per request (by sequence number): answer inline, late (from another thread, as real clients do),
 * with a failure, twice, or never. It keeps its own counts to check the harness's against: requests handed, completions
 * by outcome (the first of a {@code Twice}), and requests never completed.
 */
final class FakeAdapter implements HttpClientAdapter {

    sealed interface Behaviour permits Inline, Late, Never, Twice, Body {
    }

    record Inline(Outcome outcome) implements Behaviour {
    }

    record Late(Outcome outcome, long delayMillis) implements Behaviour {
    }

    record Never() implements Behaviour {
    }

    record Twice(Outcome outcome) implements Behaviour {
    }

    /** OK inline, reporting a body of {@code bytes}. */
    record Body(long bytes) implements Behaviour {
    }

    private final LongFunction<Behaviour> script;
    private final AtomicLong seq = new AtomicLong();
    private final LongAdder[] completed = new LongAdder[Outcome.values().length];
    private final LongAdder neverCompleted = new LongAdder();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fake-adapter");
        t.setDaemon(true);
        return t;
    });

    FakeAdapter(LongFunction<Behaviour> script) {
        this.script = script;
        for (int i = 0; i < completed.length; i++) {
            completed[i] = new LongAdder();
        }
    }

    @Override
    public void send(Request request, Completion completion) {
        switch (script.apply(seq.getAndIncrement())) {
            case Inline i -> complete(completion, i.outcome());
            case Late l -> timer.schedule(() -> complete(completion, l.outcome()), l.delayMillis(), TimeUnit.MILLISECONDS);
            case Never n -> neverCompleted.increment();
            case Body b -> {
                completed[Outcome.OK.ordinal()].increment();
                completion.complete(Outcome.OK, 200, b.bytes(), null);
            }
            case Twice t -> {
                complete(completion, t.outcome());
                completion.complete(t.outcome(), 200, 5, null);
            }
        }
    }

    private void complete(Completion completion, Outcome outcome) {
        completed[outcome.ordinal()].increment();
        completion.complete(outcome, outcome == Outcome.STATUS ? 500 : 200, 5, null);
    }

    /** Requests handed to this client. */
    long sends() {
        return seq.get();
    }

    /** Completions this client made with {@code outcome} (a late one counts once it has fired). */
    long completed(Outcome outcome) {
        return completed[outcome.ordinal()].sum();
    }

    /** Requests this client was told never to complete. */
    long neverCompleted() {
        return neverCompleted.sum();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public String libraryVersion() {
        return "test:fake:0";
    }

    @Override
    public Map<String, String> settings() {
        return Map.of();
    }
}

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
import java.util.function.LongFunction;

/**
 * A client whose behaviour per request (by its sequence number) is scripted: answer inline, late,
 * with a failure, twice, or never. Late answers come from another thread, as real clients' do.
 */
final class FakeAdapter implements HttpClientAdapter {

    sealed interface Behaviour permits Inline, Late, Never, Twice {
    }

    record Inline(Outcome outcome) implements Behaviour {
    }

    record Late(Outcome outcome, long delayMillis) implements Behaviour {
    }

    record Never() implements Behaviour {
    }

    record Twice(Outcome outcome) implements Behaviour {
    }

    private final LongFunction<Behaviour> script;
    private final AtomicLong seq = new AtomicLong();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fake-adapter");
        t.setDaemon(true);
        return t;
    });

    FakeAdapter(LongFunction<Behaviour> script) {
        this.script = script;
    }

    @Override
    public void send(Request request, Completion completion) {
        switch (script.apply(seq.getAndIncrement())) {
            case Inline i -> completion.complete(i.outcome(), i.outcome() == Outcome.OK ? 200 : 0, null);
            case Late l -> timer.schedule(() -> completion.complete(l.outcome(), 200, null), l.delayMillis(), TimeUnit.MILLISECONDS);
            case Never n -> { }
            case Twice t -> {
                completion.complete(t.outcome(), 200, null);
                completion.complete(t.outcome(), 200, null);
            }
        }
    }

    long sends() {
        return seq.get();
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

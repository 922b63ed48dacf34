package clientbench.behaviour;

import java.util.List;

/** Every case, in the order the tables show them. */
final class BehaviourCases {

    private BehaviourCases() {
    }

    static List<BehaviourCase> all() {
        return List.of(new StaleConnection("fin"), new StaleConnection("rst"), new StaleConnection("race"),
                StaleConnection.closedAtOnceSeen(), new ClosedAtOnce(), new Deadline("never"), new Deadline("stall"),
                new Deadline("trickle"), Deadline.suite(), new TimeoutLeaks(), new PoolTimeouts(), PoolTimeouts.suite(),
                new ConnectionReuse(), new UnclosedBody(), new DefaultPoolLimits(), new SlowHost(), new LargeHeaders(), new TlsStall(),
                new Http2StreamLimit(), new Http2GoAway(), new Http2FlowControl());
    }
}

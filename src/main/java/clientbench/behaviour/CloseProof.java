package clientbench.behaviour;

import clientbench.stub.StubServer;

import java.time.Duration;

/**
 * The stub's own proof that it closed a connection before the next request is sent: a new idle close went out (FIN or
 * RST) and none is pending. On loopback a close that went out is in the client's socket: it could have seen it.
 */
final class CloseProof {

    private final StubServer stub;
    private long closes;

    CloseProof(StubServer stub) {
        this.stub = stub;
        this.closes = stub.tally().idleCloses();
    }

    /** Waits at most {@code bound} for a close since the last call and none pending; whether one went out. */
    boolean await(Duration bound) throws InterruptedException {
        boolean went = CaseRequests.until(() -> {
            StubServer.Tally t = stub.tally();
            return t.idleClosesPending() == 0 && t.idleCloses() > closes;
        }, bound);
        closes = stub.tally().idleCloses();
        return went;
    }
}

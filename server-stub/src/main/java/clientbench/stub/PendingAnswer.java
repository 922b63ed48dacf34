package clientbench.stub;

/** One answer waiting for its turn on its connection (and, when delayed, for its timer) in StubHandler's queue. */
final class PendingAnswer {

    final StubParams params;
    final String invalid;
    final boolean keepAlive;
    final boolean head;
    final long requestBytes;
    boolean ready;

    PendingAnswer(StubParams params, String invalid, boolean keepAlive, boolean head, long requestBytes) {
        this.params = params;
        this.invalid = invalid;
        this.keepAlive = keepAlive;
        this.head = head;
        this.requestBytes = requestBytes;
    }

    long delayMs() {
        return invalid == null ? params.delayMs() : 0;
    }
}

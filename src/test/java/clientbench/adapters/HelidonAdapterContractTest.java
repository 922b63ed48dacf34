package clientbench.adapters;

import clientbench.api.HttpClientAdapter;

/** {@link clientbench.adapters.helidon.HelidonAdapter} against the adapter contract. */
class HelidonAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "helidon";
    }

    /** Helidon has no I/O threads to set: blocking sockets on virtual threads. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }

    /** Helidon's WebClient has no retry of its own: nothing to read from the client. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) {
        return RetriesAsShipped.NONE;
    }
}

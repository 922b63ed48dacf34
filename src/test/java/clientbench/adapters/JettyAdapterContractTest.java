package clientbench.adapters;

import clientbench.api.HttpClientAdapter;

/** {@link JettyAdapter} against the adapter contract. */
class JettyAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "jetty";
    }

    /** Jetty has no retry knob: it re-sends only a request it never wrote, on a connection it closed itself. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) {
        return RetriesAsShipped.NONE;
    }
}

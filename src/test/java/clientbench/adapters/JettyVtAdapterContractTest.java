package clientbench.adapters;

import clientbench.api.HttpClientAdapter;

/** {@link JettyVtAdapter} against the adapter contract. */
class JettyVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "jetty-vt";
    }

    /** Jetty has no retry knob: it re-sends only a request it never wrote, on a connection it closed itself. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) {
        return RetriesAsShipped.NONE;
    }
}

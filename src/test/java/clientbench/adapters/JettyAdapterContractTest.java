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
    protected String retriesAsShipped(HttpClientAdapter adapter) {
        return JETTY_RETRIES;
    }

    static final String JETTY_RETRIES = "none (Jetty re-sends only a request never written, on a connection it closed"
            + " itself)";
}

package clientbench.adapters;

import clientbench.api.HttpClientAdapter;

/**
 * {@link clientbench.adapters.spring.WebClientJettyAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}).
 */
class WebClientJettyAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "webclient-jetty";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** Jetty has no retry knob: the same client as the jetty adapters'. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) {
        return RetriesAsShipped.NONE;
    }

    /** Jetty's Request.timeout on the native request (the adapter has no timer of its own). */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return java.util.concurrent.TimeoutException.class;
    }
}

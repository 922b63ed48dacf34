package clientbench.adapters;

/**
 * {@link clientbench.adapters.spring.WebClientJdkAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}); the JDK client resends a GET whose connection dies.
 */
class WebClientJdkAdapterContractTest extends JdkEngineContractTest {

    @Override
    protected String adapterName() {
        return "webclient-jdk";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** The JDK's HttpRequest.timeout, which the connector's read timeout sets. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return java.net.http.HttpTimeoutException.class;
    }
}

package clientbench.adapters;

/**
 * {@link clientbench.adapters.spring.RestClientJdkAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}); the JDK client resends a GET whose connection dies.
 */
class RestClientJdkAdapterContractTest extends JdkEngineContractTest {

    @Override
    protected String adapterName() {
        return "restclient-jdk";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** Spring's read timeout: its TimeoutHandler reports the cancelled exchange as an HttpTimeoutException. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return java.net.http.HttpTimeoutException.class;
    }
}

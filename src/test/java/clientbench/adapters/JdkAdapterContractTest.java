package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import clientbench.testkit.ChildJvm;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link JdkAdapter} against the adapter contract: h2c by Upgrade, over TLS it offers http/1.1 next to h2,
 * it resends a GET whose connection dies, and it has one selector thread.
 */
class JdkAdapterContractTest extends JdkEngineContractTest {

    @Override
    protected String adapterName() {
        return "jdk";
    }

    @Override
    protected List<String> alpnOffersForH2() {
        return List.of("h2", "http/1.1");
    }

    @Override
    protected boolean h2cByUpgrade() {
        return true;
    }

    /**
     * The JDK reads {@code jdk.httpclient.disableRetryConnect} once per JVM, when its first request initialises
     * {@code MultiExchange}; JdkClients sets it when it loads. A fresh JVM, like a benchmark fork, builds the
     * adapter, sends one request, and reads the JDK's own flag back (it needs --add-opens, hence the JVM).
     */
    @Test
    void connectRetryIsOffInAFreshJvmThatBuildsTheAdapter() throws Exception {
        String output = ChildJvm.main(RetryConnectProbe.class)
                .jvmArgs("--add-opens", "java.net.http/jdk.internal.net.http=ALL-UNNAMED").run(20).output();
        assertEquals("RETRY_CONNECT=false", output.strip().lines().reduce((a, b) -> b).orElse(""), output);
    }

    /** Run in its own JVM by the test above: prints the JDK's connect-retry flag after one request. */
    static final class RetryConnectProbe {
        public static void main(String[] args) throws Exception {
            URI nowhere = URI.create("http://127.0.0.1:9"); // discard port: refused, so the request ends at once
            try (HttpClientAdapter adapter = Adapters.create("jdk", AdapterConfig.defaults(nowhere))) {
                CountDownLatch done = new CountDownLatch(1);
                adapter.send(Request.get(nowhere, "/", 0), (outcome, status, cause) -> done.countDown());
                done.await(10, TimeUnit.SECONDS);
            }
            var flag = Class.forName("jdk.internal.net.http.MultiExchange").getDeclaredField("RETRY_CONNECT");
            flag.setAccessible(true);
            System.out.println("RETRY_CONNECT=" + flag.getBoolean(null));
        }
    }
}

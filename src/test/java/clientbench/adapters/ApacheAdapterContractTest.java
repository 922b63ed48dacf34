package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** {@link ApacheAdapter} against the adapter contract. */
class ApacheAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "apache";
    }

    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return retriesAsShipped(liveClient(adapter, CloseableHttpAsyncClient.class));
    }

    /**
     * Apache's default strategy, found in the live client's execution chain: an idempotent request whose connection
     * fails is sent again up to its maxRetries, read from the strategy the chain holds.
     */
    static RetriesAsShipped retriesAsShipped(Object client) throws ReflectiveOperationException {
        Object strategy = find(client, DefaultHttpRequestRetryStrategy.class, new IdentityHashMap<>(), 8);
        assertNotNull(strategy, "no DefaultHttpRequestRetryStrategy in the live client " + client.getClass().getName());
        Field maxRetries = DefaultHttpRequestRetryStrategy.class.getDeclaredField("maxRetries");
        maxRetries.setAccessible(true);
        return RetriesAsShipped.exactly(DefaultHttpRequestRetryStrategy.class.getSimpleName(), 1 + maxRetries.getInt(strategy));
    }

    /** An object of {@code type} reachable from {@code o} through Apache's own fields within {@code depth}, or null. */
    private static Object find(Object o, Class<?> type, Map<Object, Boolean> seen, int depth) throws IllegalAccessException {
        if (type.isInstance(o)) {
            return o;
        }
        if (o == null || depth == 0 || seen.put(o, true) != null || !o.getClass().getName().startsWith("org.apache.hc.")) {
            return null;
        }
        for (Class<?> c = o.getClass(); c != null && c.getName().startsWith("org.apache.hc."); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!f.getType().isPrimitive() && !Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    Object found = find(f.get(o), type, seen, depth - 1);
                    if (found != null) {
                        return found;
                    }
                }
            }
        }
        return null;
    }
}

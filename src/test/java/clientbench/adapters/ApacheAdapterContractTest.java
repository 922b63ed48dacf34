package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ApacheAdapter} against the adapter contract. */
class ApacheAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "apache";
    }

    /** Apache's default strategy, found in the live client's execution chain. */
    @Override
    protected String retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return retriesAsShipped(liveClient(adapter, CloseableHttpAsyncClient.class));
    }

    /** The record of a client whose execution chain holds {@link DefaultHttpRequestRetryStrategy}, as Apache ships it. */
    static String retriesAsShipped(Object client) throws IllegalAccessException {
        assertTrue(reaches(client, DefaultHttpRequestRetryStrategy.class, new IdentityHashMap<>(), 8),
                "no DefaultHttpRequestRetryStrategy in the live client " + client.getClass().getName());
        return "the library's default, DefaultHttpRequestRetryStrategy: an idempotent request once more after an I/O"
                + " error such as NoHttpResponseException; a 429 or 503 once more after Retry-After, else 1 s";
    }

    /** True when an object of {@code type} is reachable from {@code o} through Apache's own fields, within {@code depth}. */
    private static boolean reaches(Object o, Class<?> type, Map<Object, Boolean> seen, int depth) throws IllegalAccessException {
        if (type.isInstance(o)) {
            return true;
        }
        if (o == null || depth == 0 || seen.put(o, true) != null || !o.getClass().getName().startsWith("org.apache.hc.")) {
            return false;
        }
        for (Class<?> c = o.getClass(); c != null && c.getName().startsWith("org.apache.hc."); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!f.getType().isPrimitive() && !Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    if (reaches(f.get(o), type, seen, depth - 1)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}

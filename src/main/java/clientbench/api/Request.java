package clientbench.api;

import java.net.URI;
import java.util.Objects;

/**
 * One request shape, built once per run and sent many times, so that no adapter pays for URL parsing
 * in its hot path and every adapter sends exactly the same bytes.
 *
 * @param method GET or POST
 * @param uri the absolute URI (target plus path and query)
 * @param body the request body for POST, empty for GET; never modified
 * @param expectedBodyBytes the response body length a correct exchange delivers, or -1 when unknown
 */
public record Request(String method, URI uri, byte[] body, long expectedBodyBytes) {

    private static final byte[] EMPTY = new byte[0];

    public Request {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        body = body == null ? EMPTY : body;
        if (!method.equals("GET") && !method.equals("POST")) {
            throw new IllegalArgumentException("method must be GET or POST, was " + method);
        }
    }

    public static Request get(URI target, String pathAndQuery, long expectedBodyBytes) {
        return new Request("GET", target.resolve(pathAndQuery), EMPTY, expectedBodyBytes);
    }

    public static Request post(URI target, String pathAndQuery, byte[] body, long expectedBodyBytes) {
        return new Request("POST", target.resolve(pathAndQuery), body, expectedBodyBytes);
    }

    public boolean hasBody() {
        return method.equals("POST");
    }
}

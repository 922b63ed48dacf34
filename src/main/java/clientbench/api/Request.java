package clientbench.api;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One request shape, built once and sent many times, so every adapter sends the same bytes; each builds its client's
 * own request from it on every send, as its users write it. Headers go as given, in order, with Accept-Encoding
 * identity unless the caller set one; expectedBodyBytes -1: any length; expectedStatus 0: any 2xx. abandonsBody: the
 * caller reads the status and headers, then closes the response without reading its body, as that library's users do.
 * leavesBodyOpen: the caller reads the status and headers and forgets the response, its body neither read nor closed.
 */
public record Request(String method, URI uri, List<Header> headers, byte[] body, String contentType,
                      long expectedBodyBytes, int expectedStatus, boolean abandonsBody, boolean leavesBodyOpen) {

    /** Where the body's type is not given: what every adapter sends with a body. */
    public static final String OCTET_STREAM = "application/octet-stream";
    public static final String ACCEPT_ENCODING = "Accept-Encoding";
    public static final String IDENTITY = "identity";

    private static final byte[] EMPTY = new byte[0];
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Z-]+");

    /** One header line; the name as given (HTTP/2 clients lower-case it on the wire). */
    public record Header(String name, String value) {
        public Header {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (!TOKEN.matcher(name.toUpperCase(Locale.ROOT)).matches()) {
                throw new IllegalArgumentException("invalid header name '" + name + "'");
            }
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("header " + name + ": a value must not contain a line break");
            }
        }

        /** Parses {@code Name: value}, as curl's {@code -H} takes it. */
        public static Header parse(String line) {
            int colon = line == null ? -1 : line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("header '" + line + "' is not 'Name: value'");
            }
            return new Header(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
        }

        boolean named(String other) {
            return name.equalsIgnoreCase(other);
        }
    }

    /** A request whose body is read in full, as every benchmark's. */
    public Request(String method, URI uri, List<Header> headers, byte[] body, String contentType, long expectedBodyBytes,
                   int expectedStatus) {
        this(method, uri, headers, body, contentType, expectedBodyBytes, expectedStatus, false, false);
    }

    /** A request whose body is read in full or, with {@code abandonsBody}, closed unread. */
    public Request(String method, URI uri, List<Header> headers, byte[] body, String contentType, long expectedBodyBytes,
                   int expectedStatus, boolean abandonsBody) {
        this(method, uri, headers, body, contentType, expectedBodyBytes, expectedStatus, abandonsBody, false);
    }

    public Request {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(headers, "headers");
        if (!TOKEN.matcher(method).matches() || !method.equals(method.toUpperCase(Locale.ROOT))) {
            throw new IllegalArgumentException("method must be an upper-case HTTP token such as GET or POST, was '" + method + "'");
        }
        body = body == null ? EMPTY : body;
        List<Header> all = new ArrayList<>();
        String type = contentType;
        for (Header h : headers) {
            if (h.named("Content-Type")) {
                type = h.value(); // the body's type travels with the body
            } else {
                all.add(h);
            }
        }
        if (all.stream().noneMatch(h -> h.named(ACCEPT_ENCODING))) {
            all.add(0, new Header(ACCEPT_ENCODING, IDENTITY));
        }
        headers = List.copyOf(all);
        if (body.length > 0 && (method.equals("GET") || method.equals("HEAD"))) {
            throw new IllegalArgumentException(method + " cannot carry a body (clients refuse it); use POST or PUT");
        }
        boolean carriesBody = body.length > 0 || methodCarriesBody(method);
        contentType = carriesBody ? (type == null ? OCTET_STREAM : type) : null;
        if (expectedBodyBytes < -1) {
            throw new IllegalArgumentException("expectedBodyBytes must be >= 0, or -1 for any, was " + expectedBodyBytes);
        }
        if (expectedStatus != 0 && (expectedStatus < 100 || expectedStatus > 599)) {
            throw new IllegalArgumentException("expected status must be 100-599 (or 0 for any 2xx), was " + expectedStatus);
        }
        if ((abandonsBody || leavesBodyOpen) && expectedBodyBytes != -1) {
            throw new IllegalArgumentException("a body left unread has no length to check: expectedBodyBytes must be -1");
        }
        if (abandonsBody && leavesBodyOpen) {
            throw new IllegalArgumentException("a body is either closed unread (abandonsBody) or left open, not both");
        }
    }

    /** GET with no extra header, any 2xx and exactly {@code expectedBodyBytes} (-1: any length). */
    public static Request get(URI target, String pathAndQuery, long expectedBodyBytes) {
        return new Request("GET", target.resolve(pathAndQuery), List.of(), EMPTY, null, expectedBodyBytes, 0);
    }

    /** POST of {@code body} as application/octet-stream. */
    public static Request post(URI target, String pathAndQuery, byte[] body, long expectedBodyBytes) {
        return new Request("POST", target.resolve(pathAndQuery), List.of(), body, null, expectedBodyBytes, 0);
    }

    /** The same request with these headers added after the ones it has. */
    public Request withHeaders(List<Header> more) {
        List<Header> all = new ArrayList<>(headers);
        all.addAll(more);
        return new Request(method, uri, all, body, contentType, expectedBodyBytes, expectedStatus, abandonsBody,
                leavesBodyOpen);
    }

    /** The same request, ok only with this status (0: any 2xx). */
    public Request withExpectedStatus(int status) {
        return new Request(method, uri, headers, body, contentType, expectedBodyBytes, status, abandonsBody,
                leavesBodyOpen);
    }

    /** The same request, its body left unread: the caller closes the response after its headers (any length). */
    public Request withBodyAbandoned() {
        return new Request(method, uri, headers, body, contentType, -1, expectedStatus, true, false);
    }

    /**
     * The same request, its body forgotten: the caller neither reads nor closes its body (any length) and drops the
     * response. The adapter holds it only weakly, so its library may collect it; its own close() frees what remains.
     */
    public Request withBodyLeftOpen() {
        return new Request(method, uri, headers, body, contentType, -1, expectedStatus, false, true);
    }

    /** True when the request carries a body (possibly empty, as a POST may): send {@link #contentType()} with it. */
    public boolean hasBody() {
        return contentType != null;
    }

    private static boolean methodCarriesBody(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }
}

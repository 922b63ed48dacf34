package clientbench.harness;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.Request;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.time.Duration;
import java.util.Objects;

/**
 * One trial (client, target, request, load) from the JMH parameters, validated before anything starts. {@code target}
 * empty: a stub in its own JVM; {@code ioThreads} 0: one per client CPU after pinning; {@code measureHeap}: the heap
 * held at each window's end, after a GC (long-lived shapes); stubQuery, faults: stub only.
 */
public record TrialSpec(String client, String target, Protocol protocol, int connections, int delayMs, int bytes,
                        int requestBytes, LoadSpec load, Path hlog, Duration requestTimeout, boolean measureHeap,
                        int ioThreads, RequestSpec request, String stubQuery, String faults) {

    /** The fault mix: in every 100 requests, 2 ask for status 503 and 1 each for reset, close and truncate. */
    public static final String FAULT_MIX = "mix";
    /** Where in each 100 requests the mix puts its faults, spread out, and what each asks the stub for. */
    static final java.util.Map<Integer, String> FAULTS = java.util.Map.of(10, "status=503", 30, "fault=reset",
            50, "fault=close", 70, "fault=truncate", 90, "status=503");
    static final int MIX_CYCLE = 100;

    public static final Duration CONNECT_TIMEOUT = AdapterConfig.DEFAULT_CONNECT_TIMEOUT;
    public static final Duration REQUEST_TIMEOUT = AdapterConfig.DEFAULT_REQUEST_TIMEOUT;
    /** Requests still out this long after the window are counted as timeouts (a client's own timeout comes first). */
    public static final Duration DRAIN_TIMEOUT = drainFor(REQUEST_TIMEOUT);

    /** The drain waits one second longer than the clients' own timeout, so that theirs fires first. */
    public static Duration drainFor(Duration requestTimeout) {
        return requestTimeout.plusSeconds(1);
    }

    public TrialSpec {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(protocol, "protocol");
        if (!Adapters.NOOP.equals(client) && !Adapters.isClient(client)) {
            Adapters.create(client, null); // throws the error that lists the valid names
        }
        if (target == null) {
            target = "";
        }
        if (!target.isBlank()) {
            AdapterConfig.parseTarget(target);
        }
        if (connections <= 0) {
            throw new IllegalArgumentException("connections must be > 0, was " + connections);
        }
        if (delayMs < 0) {
            throw new IllegalArgumentException("delayMs must be >= 0, was " + delayMs);
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
        if (requestBytes < 0) {
            throw new IllegalArgumentException("requestBytes must be >= 0, was " + requestBytes);
        }
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("timeoutMs must be > 0, was " + requestTimeout.toMillis());
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("ioThreads must be > 0 (or empty: one per client CPU), was " + ioThreads);
        }
        request = request == null ? RequestSpec.NONE : request;
        stubQuery = stubQuery == null ? "" : stubQuery.trim();
        faults = faults == null || faults.isBlank() ? "none" : faults.trim();
        if (!faults.equals("none") && !faults.equals(FAULT_MIX)) {
            throw new IllegalArgumentException("faults must be none or " + FAULT_MIX + ", was '" + faults + "'");
        }
        if (!target.isBlank() && (!stubQuery.isEmpty() || !faults.equals("none"))) {
            throw new IllegalArgumentException("stubQuery and faults ask the stub for something: they need no target");
        }
        if (!stubQuery.isEmpty() && !stubQuery.matches("[A-Za-z0-9=&_.-]+")) {
            throw new IllegalArgumentException("stubQuery must be name=value pairs joined by &, was '" + stubQuery + "'");
        }
        if (target.isBlank() && !request.equals(RequestSpec.NONE)) {
            throw new IllegalArgumentException("a request file (JMH parameter request) needs a target: the stub's request is fixed");
        }
    }

    /** From JMH's string parameters; every error names the parameter. */
    public static TrialSpec parse(String client, String target, String protocol, String connections, String delayMs,
                                  String bytes, String requestBytes, LoadSpec load, Path hlog) {
        return new TrialSpec(client, target, Protocol.parse(protocol), integer("connections", connections),
                integer("delayMs", delayMs), integer("bytes", bytes), integer("requestBytes", requestBytes), load, hlog,
                REQUEST_TIMEOUT, false, 0, RequestSpec.NONE, "", "none");
    }

    /** With a request timeout other than the default, and the heap measured at the end of each window. */
    public TrialSpec withLongLived(Duration timeout) {
        return new TrialSpec(client, target, protocol, connections, delayMs, bytes, requestBytes, load, hlog, timeout, true,
                ioThreads, request, stubQuery, faults);
    }

    /** With the JMH parameter {@code ioThreads}: empty keeps the layout's count, else a positive integer. */
    public TrialSpec withIoThreads(String value) {
        int n = value == null || value.isBlank() ? 0 : integer("ioThreads", value);
        if (value != null && !value.isBlank() && n <= 0) {
            throw new IllegalArgumentException("ioThreads must be > 0 (or empty: one per client CPU), was " + value);
        }
        return new TrialSpec(client, target, protocol, connections, delayMs, bytes, requestBytes, load, hlog,
                requestTimeout, measureHeap, n, request, stubQuery, faults);
    }

    /** With the JMH parameter {@code request}: empty for the shape's own request, else a request file ({@link RequestSpec}). */
    public TrialSpec withRequest(String value) {
        return withRequest(RequestSpec.param(value));
    }

    public TrialSpec withRequest(RequestSpec r) {
        return new TrialSpec(client, target, protocol, connections, delayMs, bytes, requestBytes, load, hlog,
                requestTimeout, measureHeap, ioThreads, r, stubQuery, faults);
    }

    /** With the JMH parameters {@code stubQuery} and {@code faults} (see the record's components). */
    public TrialSpec withStub(String query, String faultMix) {
        return new TrialSpec(client, target, protocol, connections, delayMs, bytes, requestBytes, load, hlog,
                requestTimeout, measureHeap, ioThreads, request, query, faultMix);
    }

    public static int integer(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(name + " must be an integer, was '" + value + "'");
        }
    }

    public static double number(String name, String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(name + " must be a number, was '" + value + "'");
        }
    }

    /** The path and query that ask the stub for this response. */
    public String stubPathAndQuery() {
        return "/?delayMs=" + delayMs + "&bytes=" + bytes + (stubQuery.isEmpty() ? "" : "&" + stubQuery);
    }

    /** True when no server of the user's is measured: the stub started per trial (or noop's nowhere). */
    public boolean againstStub() {
        return target.isBlank();
    }

    /** The server to connect to, {@code scheme://host[:port]}: the target's, without its path and query. */
    public static URI origin(URI target) {
        return URI.create(target.getScheme() + "://" + target.getRawAuthority());
    }

    /**
     * What each request asks for: the request file's path, else the target URL's own path and query, else
     * (no target, or a target URL without a path) the stub's query for this shape's delay and size.
     */
    public String pathAndQuery() {
        if (request.path() != null) {
            return request.path();
        }
        if (!target.isBlank()) {
            URI t = AdapterConfig.parseTarget(target);
            String path = t.getRawPath() == null ? "" : t.getRawPath();
            if (!path.isEmpty() || t.getRawQuery() != null) {
                return (path.isEmpty() ? "/" : path) + (t.getRawQuery() == null ? "" : "?" + t.getRawQuery());
            }
        }
        return stubPathAndQuery();
    }

    /**
     * The request every send of the trial repeats, to {@code origin}. Against the stub the body's length is
     * checked ({@code bytes}); against a target any length is ok, and recorded ({@code body.bytes.min/max}).
     */
    public Request request(URI origin) {
        byte[] body = request.bodyFile() != null ? request.body() : filled(requestBytes);
        String method = RequestSpec.effectiveMethod(request.method(), request.bodyFile() != null, requestBytes > 0);
        return new Request(method, URI.create(origin + pathAndQuery()), request.parsedHeaders(), body, null,
                againstStub() ? bytes : -1, request.expectStatus());
    }

    /**
     * What the trial sends in turn: the one {@link #request}, or with the fault mix a cycle of
     * {@value #MIX_CYCLE} of it, five of which ask the stub for a fault ({@link #FAULTS}).
     */
    public List<Request> requests(URI origin) {
        Request plain = request(origin);
        if (faults.equals("none")) {
            return List.of(plain);
        }
        List<Request> cycle = new ArrayList<>();
        for (int i = 0; i < MIX_CYCLE; i++) {
            String fault = FAULTS.get(i);
            cycle.add(fault == null ? plain : new Request(plain.method(), URI.create(plain.uri() + "&" + fault),
                    plain.headers(), plain.body(), plain.contentType(), plain.expectedBodyBytes(), plain.expectedStatus()));
        }
        return cycle;
    }

    /** How many of the first {@code sent} requests asked for a fault (0 without the mix). */
    public long faultsIn(long sent) {
        if (faults.equals("none")) {
            return 0;
        }
        long n = sent / MIX_CYCLE * FAULTS.size();
        for (int i = 0; i < sent % MIX_CYCLE; i++) {
            n += FAULTS.containsKey(i) ? 1 : 0;
        }
        return n;
    }

    /** The stub's self-signed certificate is trusted as is; a target's is verified unless the request says insecure. */
    public boolean trustAllCertificates() {
        return againstStub() || request.insecure();
    }

    /** One line for records: method, URL, headers (credentials redacted), body, what counts as ok, TLS. */
    public String describeRequest(URI origin) {
        Request r = request(origin);
        List<String> headers = request.redactedHeaders();
        String tls = !protocol.tls() ? "no TLS" : againstStub() ? "TLS trusting the stub's self-signed certificate"
                : request.insecure() ? "TLS NOT verified (insecure)" : "TLS verified (the JDK's default trust and host names)";
        return r.method() + " " + r.uri()
                + (headers.isEmpty() ? "" : "; headers " + String.join(", ", headers))
                + (request.bodyFile() != null ? "; body " + request.bodyFile() + " (" + r.body().length + " bytes, " + r.contentType() + ")"
                        : r.body().length > 0 ? "; body " + r.body().length + " bytes of filler (" + r.contentType() + ")" : "")
                + "; ok: " + (r.expectedStatus() == 0 ? "any 2xx" : "status " + r.expectedStatus())
                + (r.expectedBodyBytes() >= 0 ? " with a " + r.expectedBodyBytes() + "-byte body"
                        : ", any body length (recorded, not checked)")
                + "; " + tls;
    }

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        return b;
    }
}

package clientbench.stub;

/**
 * What a request's query string asks of the stub, parsed by hand: it runs for every request, and one without a query
 * (the common case) must cost nothing. {@code chunked}: Transfer-Encoding chunked (HTTP/2: no Content-Length);
 * {@code keepAlive} false: {@code Connection: close}, a new connection (and handshake) per request; ignored on HTTP/2.
 */
record StubParams(long delayMs, int bytes, int status, Fault fault, boolean chunked, boolean keepAlive) {

    /**
     * RESET: TCP RST (RST_STREAM on HTTP/2). CLOSE: close without answering. TRUNCATE: announce the body, send
     * half, close. STALL: announce the body, send half, then nothing more, the connection left open.
     */
    enum Fault { NONE, RESET, CLOSE, TRUNCATE, STALL }

    /** Chunks of a chunked body are at most this long, so that a large body arrives in many chunks. */
    static final int CHUNK_BYTES = 4096;

    static final int DEFAULT_BYTES = 5;
    static final int MAX_BYTES = 64 * 1024 * 1024;
    static final long MAX_DELAY_MS = 3_600_000;
    static final StubParams DEFAULT = new StubParams(0, DEFAULT_BYTES, 200, Fault.NONE, false, true);

    /** @throws IllegalArgumentException with the reason, which the stub sends back with a 400 */
    static StubParams parse(String uri) {
        int q = uri.indexOf('?');
        if (q < 0) {
            return DEFAULT;
        }
        long delayMs = 0;
        int bytes = DEFAULT_BYTES;
        int status = 200;
        Fault fault = Fault.NONE;
        boolean chunked = false;
        boolean keepAlive = true;
        int end = uri.indexOf('#', q);
        String query = uri.substring(q + 1, end < 0 ? uri.length() : end);
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            switch (name) {
                case "delayMs" -> delayMs = number(name, value, 0, MAX_DELAY_MS);
                case "bytes" -> bytes = (int) number(name, value, 0, MAX_BYTES);
                case "status" -> status = (int) number(name, value, 100, 599);
                case "fault" -> fault = switch (value) {
                    case "reset" -> Fault.RESET;
                    case "close" -> Fault.CLOSE;
                    case "truncate" -> Fault.TRUNCATE;
                    case "stall" -> Fault.STALL;
                    default -> throw new IllegalArgumentException("fault must be reset, close, truncate or stall, was '"
                            + value + "'");
                };
                case "chunked" -> chunked = bool(name, value);
                case "keepAlive" -> keepAlive = bool(name, value);
                default -> { } // other parameters (cache busters, request ids) are allowed and ignored
            }
        }
        return new StubParams(delayMs, bytes, status, fault, chunked, keepAlive);
    }

    private static boolean bool(String name, String value) {
        return switch (value) {
            case "", "1", "true" -> true;
            case "0", "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, was '" + value + "'");
        };
    }

    private static long number(String name, String value, long min, long max) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, was '" + value + "'");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(name + " must be " + min + "-" + max + ", was " + n);
        }
        return n;
    }
}

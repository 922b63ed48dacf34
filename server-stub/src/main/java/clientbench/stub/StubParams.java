package clientbench.stub;

/**
 * What a request's query string asks of the stub, parsed by hand: it runs for every request, and one without a query
 * (the common case) must cost nothing. {@code chunked}: Transfer-Encoding chunked (HTTP/2: no Content-Length);
 * {@code trickleMs}: how far apart a trickled body's bytes go out;
 * {@code keepAlive} false: {@code Connection: close}, a new connection (and handshake) per request; ignored on HTTP/2.
 * {@code headerBytes}: the response's head padded with headers to that many bytes (0: not padded).
 * {@code readPauseMs}: HTTP/2 only, the request body read 16 KiB each that many ms (0: as it comes), so the stub's
 * WINDOW_UPDATEs go out that late and a body larger than the window waits for them.
 * {@code hold}: the answer waits until the stub's owner releases the held answers ({@link HeldAnswers}), then its delay.
 * The connection's habits ({@code idleClose}, {@code closeEvery}, {@code goAwayEvery}): see {@link ConnectionCloser}.
 */
record StubParams(long delayMs, int bytes, int status, Fault fault, long trickleMs, boolean chunked, boolean keepAlive,
                  IdleClose idleClose, long idleMs, int closeEvery, int goAwayEvery, int headerBytes, long readPauseMs,
                  boolean hold) {

    /**
     * RESET: TCP RST (RST_STREAM on HTTP/2). CLOSE: close without answering. TRUNCATE: announce the body, send
     * half, close. STALL: announce the body, send half, then nothing more, the connection left open. NEVER: no
     * answer at all, the connection left open. TRICKLE: announce the body, then send it a byte every trickleMs.
     */
    enum Fault { NONE, RESET, CLOSE, TRUNCATE, STALL, NEVER, TRICKLE }

    /**
     * How the stub ends an HTTP/1.1 connection idle for {@code idleMs} after this answer: FIN (an orderly close),
     * RST (an abortive one), or RACE (left open, and closed without an answer as the next request's head arrives).
     */
    enum IdleClose { NONE, FIN, RST, RACE }

    /** Chunks of a chunked body are at most this long, so that a large body arrives in many chunks. */
    static final int CHUNK_BYTES = 4096;

    static final int DEFAULT_BYTES = 5;
    static final int MAX_BYTES = 64 * 1024 * 1024;
    static final long MAX_DELAY_MS = 3_600_000;
    /** A trickled body's bytes go out this far apart, unless the request says otherwise. */
    static final long DEFAULT_TRICKLE_MS = 1_000;
    static final long DEFAULT_IDLE_MS = 200;
    static final int MAX_EVERY = 1_000_000;
    /** A padded head is at least this long, room for the stub's own headers and one of padding. */
    static final int MIN_HEADER_BYTES = 1024;
    static final int MAX_HEADER_BYTES = 1024 * 1024;
    static final StubParams DEFAULT = new StubParams(0, DEFAULT_BYTES, 200, Fault.NONE, DEFAULT_TRICKLE_MS, false, true,
            IdleClose.NONE,
            DEFAULT_IDLE_MS, 0, 0, 0, 0, false);

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
        long trickleMs = DEFAULT_TRICKLE_MS;
        boolean chunked = false;
        boolean keepAlive = true;
        IdleClose idleClose = IdleClose.NONE;
        long idleMs = DEFAULT_IDLE_MS;
        int closeEvery = 0;
        int goAwayEvery = 0;
        int headerBytes = 0;
        long readPauseMs = 0;
        boolean hold = false;
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
                    case "never" -> Fault.NEVER;
                    case "trickle" -> Fault.TRICKLE;
                    default -> throw new IllegalArgumentException("fault must be reset, close, truncate, stall, never or"
                            + " trickle, was '" + value + "'");
                };
                case "idleClose" -> idleClose = switch (value) {
                    case "fin" -> IdleClose.FIN;
                    case "rst" -> IdleClose.RST;
                    case "race" -> IdleClose.RACE;
                    default -> throw new IllegalArgumentException("idleClose must be fin, rst or race, was '" + value + "'");
                };
                case "trickleMs" -> trickleMs = number(name, value, 1, MAX_DELAY_MS);
                case "idleMs" -> idleMs = number(name, value, 0, MAX_DELAY_MS); // 0: closed right after the answer
                case "closeEvery" -> closeEvery = (int) number(name, value, 1, MAX_EVERY);
                case "goAwayEvery" -> goAwayEvery = (int) number(name, value, 1, MAX_EVERY);
                case "headerBytes" -> headerBytes = (int) number(name, value, MIN_HEADER_BYTES, MAX_HEADER_BYTES);
                case "readPauseMs" -> readPauseMs = number(name, value, 0, MAX_DELAY_MS);
                case "chunked" -> chunked = bool(name, value);
                case "keepAlive" -> keepAlive = bool(name, value);
                case "hold" -> hold = bool(name, value);
                default -> { } // other parameters (cache busters, request ids) are allowed and ignored
            }
        }
        return new StubParams(delayMs, bytes, status, fault, trickleMs, chunked, keepAlive, idleClose, idleMs, closeEvery,
                goAwayEvery, headerBytes, readPauseMs, hold);
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

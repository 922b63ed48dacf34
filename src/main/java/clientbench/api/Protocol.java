package clientbench.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Wire protocol an adapter is pinned to. The lower-case name is the JMH parameter value. */
public enum Protocol {
    /** HTTP/1.1 over plain TCP; no h2c upgrade is attempted. */
    HTTP1(false),
    /** HTTP/1.1 over TLS (ALPN offers http/1.1 only). */
    HTTPS1(true),
    /** HTTP/2 over plain TCP with prior knowledge. */
    H2C(false),
    /** HTTP/2 over TLS, negotiated by ALPN. */
    H2(true);

    private final boolean tls;

    Protocol(boolean tls) {
        this.tls = tls;
    }

    public boolean tls() {
        return tls;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a parameter value such as {@code http1}; the error lists the valid names. */
    public static Protocol parse(String name) {
        for (Protocol p : values()) {
            if (p.label().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + name + "'; valid: "
                + Arrays.stream(values()).map(Protocol::label).collect(Collectors.joining(", ")));
    }
}

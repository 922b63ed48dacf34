package clientbench.adapters.support;

import clientbench.api.LibraryVersion;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Netty a client runs on, read from the jar that holds Netty's handlers: recorded beside the client's own library,
 * so that a fork built on another Netty (an upgrade's Netty bump) says which one it loaded.
 */
public final class NettyLibrary {

    /** The settings key. */
    public static final String KEY = "netty";

    private NettyLibrary() {
    }

    /** {@code io.netty:netty-handler:VERSION}, the artifact a Netty build is checked by. */
    public static String version() {
        return LibraryVersion.of(IdleStateHandler.class, "io.netty", "netty-handler");
    }

    /** {@code settings} with the Netty loaded under {@link #KEY}. */
    public static Map<String, String> addTo(Map<String, String> settings) {
        Map<String, String> s = new LinkedHashMap<>(settings);
        s.put(KEY, version());
        return Collections.unmodifiableMap(s);
    }
}

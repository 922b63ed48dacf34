package clientbench.adapters.spring;

import clientbench.api.LibraryVersion;
import clientbench.api.Request;
import clientbench.api.TimeoutKind;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/** What the Spring adapters share: the request as Spring's users write it, the versions, and what Boot would pick. */
final class SpringLayer {

    /** Why the Spring adapters refuse h2c and h2. */
    static final String NO_HTTP2 = "Spring's ClientHttpResponse does not say which HTTP version answered, so a response"
            + " on another version than the pinned one could not be told apart; the Spring adapters pin HTTP/1.1";

    /** Boot 4.0's ClientHttpRequestFactoryBuilder.detect(), by class presence; every engine is on this class path. */
    static final String BOOT_FACTORY = "HttpComponentsClientHttpRequestFactory: Boot 4.0 detects Apache HttpClient 5 >"
            + " Jetty > Reactor Netty > JDK > simple by class presence, and all four are on this class path";

    /** Boot 4.0's ClientHttpConnectorBuilder.detect(). */
    static final String BOOT_CONNECTOR = "ReactorClientHttpConnector: Boot 4.0 detects Reactor Netty > Jetty"
            + " (with jetty-reactive-httpclient) > Apache HttpClient 5 (with httpcore5-reactive) > JDK by class presence";

    /** What Boot's engine builders would change that the suite keeps pinned (docs/reference/clients.md). */
    static final String BOOT_ENGINE = "Boot's own builder would follow redirects, keep Apache's retries, compression and"
            + " cookies, turn on Reactor Netty's compression, and leave pool limits and timeouts unset; the suite keeps"
            + " the bare adapter's engine instead, so the layer is the only difference";

    private SpringLayer() {
    }

    /** spring-web's version, read from its jar (or the build's resolved list). */
    static String springWeb() {
        return LibraryVersion.of(RestClient.class, "org.springframework", "spring-web");
    }

    /** spring-webflux's version. */
    static String springWebflux() {
        return LibraryVersion.of(WebClient.class, "org.springframework", "spring-webflux");
    }

    /** The version in {@code group:artifact:version}. */
    static String versionOf(String coordinates) {
        return coordinates.substring(coordinates.lastIndexOf(':') + 1);
    }

    /** The request's headers, in order, as given; the body's type goes with the body ({@link #contentType}). */
    static void headers(Request request, HttpHeaders headers) {
        request.headers().forEach(h -> headers.add(h.name(), h.value()));
    }

    static MediaType contentType(Request request) {
        return MediaType.parseMediaType(request.contentType());
    }

    /** Records whose timer the request timeout is given to, over the engine's own record of it. */
    static void timeout(Map<String, String> settings, TimeoutKind kind, String how) {
        settings.put("requestTimeout", how);
        settings.put("timeoutKind", kind.label());
    }
}

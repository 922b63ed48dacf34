package clientbench.adapters.reactor;

import clientbench.adapters.support.OpenBodies;
import clientbench.api.Request;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * One request as Reactor Netty's users write it, for both Reactor Netty adapters: the headers set on the request in
 * {@code send} (never {@code client.headers(...)}, which copies the client's whole configuration per call), the body
 * counted as it passes; Reactor Netty releases each buffer after it is seen.
 */
final class ReactorRequests {

    /** What a response came to: its status, HTTP major version, and body length (-1: not read). */
    record Received(int status, int majorVersion, long bytes) {
    }

    private ReactorRequests() {
    }

    /**
     * The exchange, cold. A caller that abandons the body never subscribes to it and Reactor Netty decides about the
     * connection; one that leaves it open takes the connection ({@code responseConnection}) and never disposes of it.
     */
    static Mono<Received> exchange(HttpClient client, Request request, OpenBodies leftOpen) {
        HttpClient.ResponseReceiver<?> exchange = client.request(HttpMethod.valueOf(request.method()))
                .uri(request.uri())
                .send((out, outbound) -> {
                    request.headers().forEach(h -> out.addHeader(h.name(), h.value()));
                    if (!request.hasBody()) {
                        return Mono.empty();
                    }
                    out.header(HttpHeaderNames.CONTENT_TYPE, request.contentType());
                    return outbound.send(Mono.fromCallable(() -> Unpooled.wrappedBuffer(request.body())));
                });
        if (request.leavesBodyOpen()) {
            return exchange.responseConnection((response, connection) -> {
                leftOpen.hold(connection, reactor.netty.Connection::dispose);
                return Mono.just(new Received(response.status().code(), response.version().majorVersion(), -1L));
            }).single();
        }
        return exchange.response((response, body) -> (request.abandonsBody() ? Mono.just(-1L)
                        : body.reduce(0L, (n, buf) -> n + buf.readableBytes()))
                        .map(bytes -> new Received(response.status().code(), response.version().majorVersion(), bytes)))
                .single();
    }
}

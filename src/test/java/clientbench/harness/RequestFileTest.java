package clientbench.harness;

import clientbench.api.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request file (JMH parameter {@code request}) becomes exactly the request a trial repeats: method, path and query,
 * headers, body, status; any body length is ok against a target and checked against the stub; a target's certificates
 * are verified unless it says insecure; no credential reaches a record.
 */
class RequestFileTest {
    @TempDir
    Path dir;

    static final URI ORIGIN = URI.create("http://127.0.0.1:8080");

    static TrialSpec trial(String target, String requestBytes) {
        return TrialSpec.parse("jdk", target, target.startsWith("https") ? "https1" : "http1", "8", "0", "5", requestBytes,
                LoadSpec.closed(1, Duration.ZERO), null);
    }

    @Test
    void aFileWrittenForTheForksReadsBackTheSame() throws Exception {
        Path body = Files.writeString(dir.resolve("order.json"), "{\"id\": 7}");
        RequestSpec spec = new RequestSpec("PUT", "/orders/7?ids=1,2", List.of("Authorization: Bearer abc", "Accept: */*"),
                body, 201, true);
        Path file = dir.resolve(RequestSpec.FILE);
        spec.write(file);
        assertEquals(spec, RequestSpec.param(file.toString()));
        assertEquals(RequestSpec.NONE, RequestSpec.param(""), "empty: the shape's own request");
    }

    @Test
    void everyKeyIsOptionalAndABodyFileIsRelativeToTheFile() throws Exception {
        Files.writeString(dir.resolve("body.bin"), "12345");
        Path file = Files.writeString(dir.resolve("r.json"), "{\"bodyFile\": \"body.bin\"}");
        RequestSpec spec = RequestSpec.read(file);
        assertEquals(dir.resolve("body.bin").toAbsolutePath(), spec.bodyFile());
        Request r = trial("http://127.0.0.1:8080/x", "0").withRequest(spec).request(ORIGIN);
        assertEquals("POST", r.method(), "a body without a method is POSTed, as curl -d does");
        assertEquals("12345", new String(r.body()));
        assertEquals(Request.OCTET_STREAM, r.contentType());
        assertEquals(URI.create("http://127.0.0.1:8080/x"), r.uri(), "the target URL's own path, no request path given");
    }

    @Test
    void theRequestIsTheOneTheFileDescribes() throws Exception {
        Path body = Files.writeString(dir.resolve("b.json"), "{}");
        RequestSpec spec = new RequestSpec("PATCH", "/a/b?c=1,2&d=%20", List.of("X-Token: t", "Content-Type: application/json"),
                body, 204, false);
        Request r = trial("http://127.0.0.1:8080", "0").withRequest(spec).request(ORIGIN);
        assertEquals("PATCH", r.method());
        assertEquals("http://127.0.0.1:8080/a/b?c=1,2&d=%20", r.uri().toString());
        assertTrue(r.headers().contains(new Request.Header("X-Token", "t")), r.headers().toString());
        assertEquals("application/json", r.contentType());
        assertEquals(204, r.expectedStatus());
        assertEquals(-1, r.expectedBodyBytes(), "against a target any length is ok (recorded)");
    }

    @Test
    void aTargetWithoutAPathGetsTheStubsQueryAndAnyLength() {
        TrialSpec t = trial("http://127.0.0.1:8080", "0");
        assertEquals("/?delayMs=0&bytes=5", t.pathAndQuery());
        assertEquals(-1, t.request(ORIGIN).expectedBodyBytes());
        assertEquals("/", trial("http://127.0.0.1:8080/", "0").pathAndQuery(), "a slash is a path");
        assertEquals("/q?x=1", trial("http://127.0.0.1:8080/q?x=1", "0").pathAndQuery());
    }

    @Test
    void theStubsBodyLengthIsStillCheckedAndItsCertificateTrusted() {
        TrialSpec stub = trial("", "1024");
        Request r = stub.request(ORIGIN);
        assertEquals(5, r.expectedBodyBytes());
        assertEquals("POST", r.method());
        assertEquals(1024, r.body().length);
        assertTrue(stub.trustAllCertificates());
    }

    @Test
    void aTargetsCertificateIsVerifiedUnlessInsecure() {
        assertFalse(trial("https://example.com", "0").trustAllCertificates());
        RequestSpec insecure = new RequestSpec(null, null, List.of(), null, 0, true);
        assertTrue(trial("https://example.com", "0").withRequest(insecure).trustAllCertificates());
        assertTrue(trial("https://example.com", "0").withRequest(insecure).describeRequest(URI.create("https://example.com"))
                .contains("TLS NOT verified"));
    }

    @Test
    void aRequestFileWithoutATargetIsRefused() {
        RequestSpec spec = new RequestSpec("POST", null, List.of(), null, 0, false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> trial("", "0").withRequest(spec));
        assertTrue(e.getMessage().contains("needs a target"), e.getMessage());
    }

    @Test
    void credentialsNeverReachARecord() throws Exception {
        RequestSpec spec = new RequestSpec(null, "/", List.of("Authorization: Bearer s3cret", "X-Api-Key: k3y",
                "Cookie: session=abc", "Accept: application/json"), null, 0, false);
        assertEquals(List.of("Authorization: <redacted>", "X-Api-Key: <redacted>", "Cookie: <redacted>",
                "Accept: application/json"), spec.redactedHeaders());
        String described = trial("http://h:1", "0").withRequest(spec).toString()
                + trial("http://h:1", "0").withRequest(spec).describeRequest(URI.create("http://h:1"));
        for (String secret : List.of("s3cret", "k3y", "session=abc")) {
            assertFalse(described.contains(secret), described);
        }
        Path file = dir.resolve(RequestSpec.FILE);
        spec.write(file);
        assertTrue(Files.readString(file).contains("s3cret"), "the forks need the values");
        spec.writeRedacted(file);
        assertFalse(Files.readString(file).contains("s3cret"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequestSpec.read(file));
        assertTrue(e.getMessage().contains("give their values again"), e.getMessage());
    }

    @Test
    void eachMistakeInAFileIsNamed() throws Exception {
        Map<String, String> cases = Map.of(
                "{\"hedaers\": []}", "unknown key 'hedaers'; valid: method, path, headers, bodyFile, expectStatus, insecure",
                "{\"headers\": \"X: y\"}", "'headers' must be a list",
                "{\"headers\": [\"X y\"]}", "header 'X y' is not 'Name: value'",
                "{\"headers\": [\"Host: h\"]}", "Host is set by each client itself",
                "{\"method\": \"post\"}", "method must be an upper-case HTTP token",
                "{\"path\": \"orders\"}", "path must start with '/'",
                "{\"expectStatus\": 1000}", "expected status must be 100-599",
                "{\"bodyFile\": \"missing.bin\"}", "is not a readable file",
                "{\"method\": ", "not valid JSON",
                "[]", "must hold one JSON object");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path file = Files.writeString(dir.resolve("bad.json"), c.getKey());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequestSpec.read(file), c.getKey());
            assertTrue(e.getMessage().startsWith("request file " + file + ": "), e.getMessage());
            assertTrue(e.getMessage().contains(c.getValue()), c.getKey() + " -> " + e.getMessage());
        }
        assertNull(RequestSpec.NONE.bodyFile());
    }
}

package clientbench.harness;

import clientbench.api.Request;
import clientbench.harness.record.JsonFiles;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The request a trial sends to a server of your own, a small JSON file ./bench writes into the run's folder from
 * --target, --method, --header, --body-file, --expect-status, --insecure; benchmarks take its path as JMH parameter
 * {@code request}, as -p splits on commas. Records show {@link #redacted()}, credentials replaced, refused as input.
 */
public record RequestSpec(String method, String path, List<String> headers, Path bodyFile, int expectStatus,
                          boolean insecure) {

    /** No file: the shape's own request (GET, or POST of its filler body). */
    public static final RequestSpec NONE = new RequestSpec(null, null, List.of(), null, 0, false);

    /** The file's name in a run's folder. */
    public static final String FILE = "request.json";
    public static final String REDACTED = "<redacted>";
    static final List<String> KEYS = List.of("method", "path", "headers", "bodyFile", "expectStatus", "insecure");
    /** Set by clients themselves (several refuse them, the JDK's among them): giving one would measure nothing. */
    private static final Set<String> SET_BY_CLIENTS = Set.of("host", "content-length", "transfer-encoding", "connection",
            "keep-alive", "upgrade", "expect", "te", "trailer", "proxy-connection");
    /** Header names whose values are credentials: recorded as {@link #REDACTED}. */
    private static final Pattern SECRET = Pattern.compile(
            ".*(auth|token|secret|key|passw|cookie|session|signature|credential).*");

    public RequestSpec {
        headers = List.copyOf(Objects.requireNonNull(headers, "headers"));
        List<Request.Header> parsed = new ArrayList<>();
        for (String line : headers) {
            Request.Header h = Request.Header.parse(line);
            if (SET_BY_CLIENTS.contains(h.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("header '" + line + "': " + h.name()
                        + " is set by each client itself (some refuse it); leave it out");
            }
            parsed.add(h);
        }
        if (path != null) {
            checkPath(path);
        }
        if (bodyFile != null) {
            bodyFile = bodyFile.toAbsolutePath().normalize();
            if (!Files.isRegularFile(bodyFile) || !Files.isReadable(bodyFile)) {
                throw new IllegalArgumentException("body file " + bodyFile + " is not a readable file");
            }
        }
        // Request's own rules for the method, the status and a body on GET, with a stand-in body.
        new Request(effectiveMethod(method, bodyFile != null, false), URI.create("http://127.0.0.1/"), parsed,
                bodyFile == null ? null : new byte[1], null, -1, expectStatus);
    }

    /** The JMH parameter {@code request}: empty for {@link #NONE}, else the path of a request file. */
    public static RequestSpec param(String value) {
        return value == null || value.isBlank() ? NONE : read(Path.of(value.trim()));
    }

    /** From ./bench's options; {@code expectStatus} as given (null: any 2xx). */
    public static RequestSpec of(String method, String path, List<String> headers, Path bodyFile, String expectStatus,
                                 boolean insecure) {
        int status = 0;
        if (expectStatus != null) {
            try {
                status = Integer.parseInt(expectStatus.trim());
            } catch (NumberFormatException e) {
                status = -1;
            }
            if (status < 100 || status > 599) {
                throw new IllegalArgumentException("--expect-status must be an HTTP status 100-599, was '" + expectStatus + "'");
            }
        }
        return new RequestSpec(method, path, headers, bodyFile, status, insecure);
    }

    /** Reads a request file; every error names the file and what to change. */
    public static RequestSpec read(Path file) {
        String where = "request file " + file + ": ";
        JsonNode root;
        try {
            root = JsonFiles.MAPPER.readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + "not valid JSON (line " + e.getLocation().getLineNr() + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException(where + "cannot be read (" + e.getMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(where + "must hold one JSON object with the keys " + String.join(", ", KEYS));
        }
        if (root.path("redacted").asBoolean(false)) {
            throw new IllegalArgumentException(where + "its credential headers were replaced by " + REDACTED
                    + " when the run that wrote it ended; give their values again");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key) && !key.equals("redacted")) {
                throw new IllegalArgumentException(where + "unknown key '" + key + "'; valid: " + String.join(", ", KEYS));
            }
        }
        try {
            List<String> headers = new ArrayList<>();
            JsonNode h = root.path("headers");
            if (!h.isMissingNode() && !h.isNull()) {
                if (!h.isArray()) {
                    throw new IllegalArgumentException("'headers' must be a list of \"Name: value\" strings");
                }
                for (JsonNode line : h) {
                    if (!line.isTextual()) {
                        throw new IllegalArgumentException("'headers' must be a list of \"Name: value\" strings");
                    }
                    headers.add(line.asText());
                }
            }
            String body = text(root, "bodyFile");
            JsonNode status = root.path("expectStatus");
            if (!status.isMissingNode() && !status.isNull() && !status.isInt()) {
                throw new IllegalArgumentException("'expectStatus' must be a number (0: any 2xx)");
            }
            JsonNode insecure = root.path("insecure");
            if (!insecure.isMissingNode() && !insecure.isNull() && !insecure.isBoolean()) {
                throw new IllegalArgumentException("'insecure' must be true or false");
            }
            Path folder = file.toAbsolutePath().getParent();
            return new RequestSpec(text(root, "method"), text(root, "path"), headers,
                    body == null ? null : folder.resolve(body), status.asInt(0), insecure.asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + e.getMessage(), e);
        }
    }

    private static String text(JsonNode root, String key) {
        JsonNode n = root.path(key);
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new IllegalArgumentException("'" + key + "' must be a string");
        }
        return n.asText();
    }

    private static void checkPath(String path) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with '/', was '" + path + "'");
        }
        try {
            URI uri = new URI("http://127.0.0.1" + path);
            if (uri.getRawFragment() != null) {
                throw new IllegalArgumentException("path '" + path + "' has a #fragment, which is never sent");
            }
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("path '" + path + "' is not a valid path and query (" + e.getReason() + ")");
        }
    }

    /** The method sent: the given one, else POST when a body goes out, else GET. */
    static String effectiveMethod(String method, boolean body, boolean shapeBody) {
        return method != null ? method : body || shapeBody ? "POST" : "GET";
    }

    /** The headers as the request carries them. */
    public List<Request.Header> parsedHeaders() {
        return headers.stream().map(Request.Header::parse).toList();
    }

    /** The body's content, read now (the trial reads it once); empty without a body file. */
    public byte[] body() {
        if (bodyFile == null) {
            return new byte[0];
        }
        try {
            return Files.readAllBytes(bodyFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("body file " + bodyFile + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** True for a header whose value is a credential (Authorization, X-Token, Cookie...): never recorded. */
    public static boolean secret(String headerName) {
        return SECRET.matcher(headerName.toLowerCase(Locale.ROOT)).matches();
    }

    /** The headers with each credential's value replaced by {@link #REDACTED}. */
    public List<String> redactedHeaders() {
        return parsedHeaders().stream()
                .map(h -> h.name() + ": " + (secret(h.name()) ? REDACTED : h.value())).toList();
    }

    /** The file as ./bench writes it for the forks (values in full). */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (method != null) {
            m.put("method", method);
        }
        if (path != null) {
            m.put("path", path);
        }
        m.put("headers", headers);
        if (bodyFile != null) {
            m.put("bodyFile", bodyFile.toString());
        }
        m.put("expectStatus", expectStatus);
        m.put("insecure", insecure);
        return m;
    }

    /** As {@link #json()}, credentials replaced; marked {@code redacted} when any was, so it is never sent as is. */
    public Map<String, Object> redacted() {
        Map<String, Object> m = json();
        m.put("headers", redactedHeaders());
        if (!redactedHeaders().equals(headers)) {
            m.put("redacted", true);
        }
        return m;
    }

    /**
     * Writes the file the forks read, readable by its owner alone (it may hold credentials until
     * {@link #writeRedacted} replaces it).
     */
    public void write(Path file) throws IOException {
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        }
        Files.writeString(file, JsonFiles.MAPPER.writeValueAsString(json()));
    }

    /** Replaces the file with its {@link #redacted()} form, once no fork needs it any more. */
    public void writeRedacted(Path file) throws IOException {
        JsonFiles.writeAtomically(file, redacted());
    }

    /** Redacted: this string goes into .hlog headers and logs. */
    @Override
    public String toString() {
        return "RequestSpec" + redacted();
    }
}

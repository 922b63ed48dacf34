package clientbench.results;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.LoadSpec;
import clientbench.harness.TrialSpec;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * env.json: what a run measured on and with (machine, JDKs, flags, profile, shapes, timeouts, each client's version and
 * settings), which runs failed or were skipped and why, and the rounds (orders, host checks, repeats, seed). The
 * notebook and README read its keys: they are API.
 */
public final class EnvJson {

    private EnvJson() {
    }

    /** How the forks ran: their JVM flags, and the class-data archives each got beyond them, or why none. */
    public record Forks(List<String> jvmArgs, String classDataSharing) {
    }

    public static Map<String, Object> of(RunPlan plan, Instant started, List<Map<String, Object>> runs, List<String> failed,
                                  List<String> skipped, List<Map<String, Object>> rounds, Forks forks, Path dir)
            throws IOException {
        Profile p = plan.profile();
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("profile", p.name());
        env.put("started", started.toString());
        env.put("finished", Instant.now().toString());
        env.put("machine", Environment.machine());
        env.put("launcherJdk", Environment.launcherJdk());
        env.put("forkJava", plan.jdk().java().toString());
        env.put("forkJvmArgs", forks.jvmArgs());
        env.put("classDataSharing", forks.classDataSharing());
        env.put("purpose", p.purpose());
        env.put("slo", clientbench.harness.rule.Slo.DEFAULT.toJson());
        env.put("settings", Map.of("connectTimeout", TrialSpec.CONNECT_TIMEOUT.toString(),
                "requestTimeout", TrialSpec.REQUEST_TIMEOUT.toString(),
                "drainTimeout", TrialSpec.DRAIN_TIMEOUT.toString()));
        env.put("jmhArgs", plan.jmh().args());
        env.put("target", plan.target() == null ? "stub in its own JVM per trial" : plan.target());
        env.put("request", request(plan));
        env.put("clients", plan.clients());
        env.put("shapes", p.shapes());
        env.put("seed", plan.seed());
        env.put("rounds", rounds);
        env.put("runs", runs);
        env.put("failed", failed);
        env.put("skipped", skipped);
        env.put("clientSettings", clientSettings(dir));
        return env;
    }

    /**
     * What each request was and what counted as ok: {@code summary} (one line for the report), and with a target
     * the request file's keys (credential header values redacted), the URL, the body's size and TLS verification.
     */
    public static Map<String, Object> request(RunPlan plan) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("summary", requestSummary(plan));
        if (plan.target() == null) {
            m.put("bodyLength", "checked: a body of any other length than the shape's bytes is fail.other");
            return m;
        }
        m.put("url", TrialSpec.origin(AdapterConfig.parseTarget(plan.target())) + sample(plan).pathAndQuery());
        m.putAll(plan.request().redacted());
        if (plan.request().bodyFile() != null) {
            m.put("bodyBytes", plan.request().body().length);
        }
        m.put("bodyLength", "any: recorded as body.bytes.min and body.bytes.max, not checked");
        m.put("tls", !https(plan) ? "none (http)" : plan.request().insecure()
                ? "not verified (--insecure)" : "verified: the JDK's default trust store and host-name check");
        return m;
    }

    /** One line: the request as a trial sends it (a GET shape's; shapes with a filler body POST it instead). */
    public static String requestSummary(RunPlan plan) {
        if (plan.target() == null) {
            return "the stub's: GET /?delayMs=<shape's>&bytes=<shape's> (POST of the shape's requestBytes where it has"
                    + " them); ok: any 2xx with exactly the shape's bytes; TLS trusting the stub's self-signed certificate";
        }
        TrialSpec s = sample(plan);
        return s.describeRequest(TrialSpec.origin(AdapterConfig.parseTarget(plan.target())));
    }

    /** A trial of a GET shape against the plan's target, for what its request looks like. */
    private static TrialSpec sample(RunPlan plan) {
        String protocol = https(plan) ? "https1" : "http1";
        return TrialSpec.parse(Adapters.NOOP, plan.target(), protocol, "1", "0", "5", "0",
                LoadSpec.closed(1, Duration.ZERO), null).withRequest(plan.request());
    }

    private static boolean https(RunPlan plan) {
        return "https".equalsIgnoreCase(AdapterConfig.parseTarget(plan.target()).getScheme());
    }

    /** Library versions and effective settings, as each trial's fork recorded them. */
    private static Map<String, Object> clientSettings(Path dir) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.trial.json")) {
            for (Path f : files) {
                JsonNode node = JsonFiles.MAPPER.readTree(f.toFile());
                m.putIfAbsent(node.path("client").asText(), node.path("settings"));
            }
        }
        return m;
    }
}

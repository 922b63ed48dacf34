package clientbench.cli;

import clientbench.harness.JsonFiles;
import clientbench.harness.TrialSpec;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * env.json: what a run measured on and with (machine, JDKs, flags, profile, shapes, timeouts, each
 * client's version and effective settings), which runs failed or were skipped and why. The notebook
 * and README read its keys: they are API.
 */
final class EnvJson {

    private EnvJson() {
    }

    static Map<String, Object> of(RunPlan plan, Instant started, List<Map<String, Object>> runs, List<String> failed,
                                  List<String> skipped, List<String> forkJvmArgs, Path dir) throws IOException {
        Profile p = plan.profile();
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("profile", p.name());
        env.put("started", started.toString());
        env.put("finished", Instant.now().toString());
        env.put("machine", Environment.machine());
        env.put("launcherJdk", Environment.launcherJdk());
        env.put("forkJava", plan.jdk().java().toString());
        env.put("forkJvmArgs", forkJvmArgs);
        env.put("purpose", p.purpose());
        env.put("slo", clientbench.harness.Slo.DEFAULT.toJson());
        env.put("settings", Map.of("connectTimeout", TrialSpec.CONNECT_TIMEOUT.toString(),
                "requestTimeout", TrialSpec.REQUEST_TIMEOUT.toString(),
                "drainTimeout", TrialSpec.DRAIN_TIMEOUT.toString()));
        env.put("jmhArgs", plan.jmh().args());
        env.put("target", plan.target() == null ? "stub in its own JVM per trial" : plan.target());
        env.put("clients", plan.clients());
        env.put("shapes", p.shapes());
        env.put("runs", runs);
        env.put("failed", failed);
        env.put("skipped", skipped);
        env.put("clientSettings", clientSettings(dir));
        return env;
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

package clientbench.cli;

import clientbench.harness.RequestSpec;
import clientbench.plan.RunPlan;
import clientbench.plan.Shape;
import clientbench.results.EnvJson;
import clientbench.run.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.Options;
import picocli.CommandLine;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./bench --target URL --method --header --body-file --expect-status} reaches every (shape, client) run as
 * one request file (JMH parameter {@code request}; {@code target} the URL's origin), and env.json records it
 * under {@code request} with the credentials left out.
 */
class OwnServiceRequestReachesEveryRunTest {
    @TempDir
    Path dir;

    @Test
    void theRequestOptionsBecomeOneFileEveryRunGetsAndEnvJsonRecords() throws Exception {
        Path body = Files.writeString(dir.resolve("order.json"), "{\"id\": 7}");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String origin = "http://127.0.0.1:" + server.getLocalPort();
            RunCommand cmd = new RunCommand();
            new CommandLine(cmd).parseArgs("--target", origin + "/orders?ids=1,2", "--method", "PUT",
                    "--header", "Authorization: Bearer s3cret", "--header", "Content-Type: application/json",
                    "--body-file", body.toString(), "--expect-status", "201", "--clients", "jdk");
            assertEquals(0, cmd.check());
            RunPlan plan = cmd.plan();
            assertEquals(new RequestSpec("PUT", "/orders?ids=1,2", List.of("Authorization: Bearer s3cret",
                    "Content-Type: application/json"), body, 201, false), plan.request());

            Path file = dir.resolve(RequestSpec.FILE);
            plan.request().write(file);
            for (Shape shape : plan.profile().shapes()) {
                Options run = RunOptions.of(plan, shape, "jdk", 1, List.of(), file);
                assertEquals(List.of(file.toAbsolutePath().toString()), List.copyOf(run.getParameter("request").get()), shape.name());
                assertEquals(List.of(origin), List.copyOf(run.getParameter("target").get()), "the path lives in the file");
            }

            Map<String, Object> request = EnvJson.request(plan);
            assertEquals(origin + "/orders?ids=1,2", request.get("url"));
            assertEquals(List.of("Authorization: <redacted>", "Content-Type: application/json"), request.get("headers"));
            assertEquals(201, request.get("expectStatus"));
            assertEquals(9, request.get("bodyBytes"));
            assertEquals("none (http)", request.get("tls"));
            String summary = (String) request.get("summary");
            assertTrue(summary.startsWith("PUT " + origin + "/orders?ids=1,2; headers Authorization: <redacted>"), summary);
            assertTrue(summary.contains("ok: status 201, any body length (recorded, not checked)"), summary);
            assertFalse(request.toString().contains("s3cret"), request.toString());
        }
    }

    @Test
    void withoutATargetTheStubsRequestIsRecorded() throws Exception {
        RunCommand cmd = new RunCommand();
        new CommandLine(cmd).parseArgs("--clients", "jdk");
        assertEquals(0, cmd.check());
        Options run = RunOptions.of(cmd.plan(), cmd.plan().profile().shapes().get(0), "jdk", 1, List.of(), null);
        assertFalse(run.getParameter("request").hasValue(), "the benchmarks' default: the shape's own request");
        assertTrue(((String) EnvJson.request(cmd.plan()).get("summary")).startsWith("the stub's"));
    }
}

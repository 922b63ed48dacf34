package clientbench.cli;

import clientbench.upgrade.ClientBuild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code ./bench upgrade --from-diff REPO BASE..HEAD}, before anything is built: the pairs it will measure from a
 * scratch repository's bump, the design a pull request's check gets, and one-line refusals.
 */
class UpgradeFromDiffTest {

    @TempDir
    Path repo;

    @Test
    void anOkhttpBumpIsOnePairAtTheCheckedDesign() throws Exception {
        commitPom("<okhttp.version>5.4.0</okhttp.version><netty.version>4.2.17.Final</netty.version>");
        commitPom("<okhttp.version>5.5.1</okhttp.version><netty.version>4.2.17.Final</netty.version>");
        UpgradeCommand c = parsed("--from-diff", repo.toString(), "HEAD~1..HEAD");
        assertEquals(0, c.check());
        assertEquals(List.of("okhttp 5.4.0 -> okhttp 5.5.1"), words(c.pairs()));
        assertEquals(List.of("rate-4000"), c.measured().shapes().stream().map(s -> s.name()).toList());
        assertEquals(6, c.measured().shapes().get(0).rounds(), "sets, as the committed A/A run");
        assertEquals(9, c.measured().shapes().get(0).blocks(), "blocks, as the committed A/A run");
    }

    @Test
    void aNettyBumpIsAPairOnEachDefaultClientOnNetty() throws Exception {
        commitPom("<okhttp.version>5.5.1</okhttp.version><netty.version>4.2.17.Final</netty.version>");
        commitPom("<okhttp.version>5.5.1</okhttp.version><netty.version>4.2.18.Final</netty.version>");
        UpgradeCommand c = parsed("--from-diff", repo.toString(), "HEAD~1..HEAD", "--rounds", "4", "--blocks", "0");
        assertEquals(0, c.check());
        assertEquals(List.of("ahc with netty 4.2.17.Final -> ahc with netty 4.2.18.Final",
                "reactor with netty 4.2.17.Final -> reactor with netty 4.2.18.Final",
                "vertx with netty 4.2.17.Final -> vertx with netty 4.2.18.Final"), words(c.pairs()));
        assertEquals(4, c.measured().shapes().get(0).rounds());
        assertEquals(0, c.measured().shapes().get(0).blocks(), "--blocks 0: rounds of fresh JVMs");
    }

    @Test
    void aBadRangeOrAClientNamedBesideTheDiffIsRefusedInOneLine() throws Exception {
        commitPom("<okhttp.version>5.5.1</okhttp.version>");
        assertEquals(2, parsed("--from-diff", repo.toString(), "HEAD").check(), "not BASE..HEAD");
        assertEquals(2, parsed("--from-diff", repo.toString(), "nosuch..HEAD").check(), "an unknown revision");
        assertEquals(2, parsed("--from-diff", repo.toString(), "HEAD..HEAD", "okhttp").check(), "a client beside the diff");
        assertEquals(2, parsed("--from-diff", repo.toString(), "HEAD..HEAD", "--gate", repo.resolve("no.toml").toString())
                .check(), "a gate file that is not there");
        assertEquals(2, parsed("okhttp", "5.5.1").check(), "neither CLIENT OLD NEW nor --from-diff");
    }

    @Test
    void aDiffThatMovesNoMeasuredClientMeasuresNothingAndPasses() throws Exception {
        commitPom("<okhttp.version>5.5.1</okhttp.version><jackson.version>2.21.0</jackson.version>");
        commitPom("<okhttp.version>5.5.1</okhttp.version><jackson.version>2.22.1</jackson.version>");
        UpgradeCommand c = parsed("--from-diff", repo.toString(), "HEAD~1..HEAD");
        assertEquals(0, c.call(), "nothing this suite measures moved");
        assertEquals(List.of(), c.pairs());
    }

    @Test
    void aMeasuredClientsBumpItCannotReadIsUnresolvedNotPassed() throws Exception {
        commitPom("<okhttp.version>5.4.0</okhttp.version>");
        // The version moves to a property the repository does not define (a parent elsewhere): it may be a bump.
        Files.writeString(repo.resolve("pom.xml"), Files.readString(repo.resolve("pom.xml"))
                .replace("${okhttp.version}", "${elsewhere.version}"));
        git("commit", "-q", "-a", "-m", "unread");
        UpgradeCommand c = parsed("--from-diff", repo.toString(), "HEAD~1..HEAD");
        assertEquals(3, c.call(), "nothing measured, and a measured client may have moved");
        assertEquals(List.of(), c.pairs());
    }

    @Test
    void theExampleChecksNameOnlyOptionsTheCommandHas() throws Exception {
        java.util.Set<String> known = new java.util.HashSet<>();
        new CommandLine(new UpgradeCommand()).getCommandSpec().options().forEach(o -> known.addAll(List.of(o.names())));
        for (String name : List.of("upgrade-check.github.yml", "upgrade-check.gitlab-ci.yml")) {
            String text = Files.readString(Path.of(System.getProperty("user.dir"), "examples", name));
            java.util.regex.Matcher command = java.util.regex.Pattern.compile("\\./bench upgrade ([^\\n]*(\\\\\\n[^\\n]*|\\n\\s+--[^\\n]*)*)")
                    .matcher(text);
            assertEquals(true, command.find(), name + " runs ./bench upgrade");
            java.util.regex.Matcher option = java.util.regex.Pattern.compile("(?<![\\w-])--[a-z][a-z-]*").matcher(command.group(1));
            int options = 0;
            while (option.find()) {
                assertEquals(true, known.contains(option.group()), name + ": " + option.group() + " is no option of upgrade");
                options++;
            }
            assertEquals(true, options >= 3, name + ": --from-diff, --gate and --summary: " + command.group(1));
        }
    }

    private static UpgradeCommand parsed(String... args) {
        UpgradeCommand c = new UpgradeCommand();
        new CommandLine(c).parseArgs(args);
        return c;
    }

    private static List<String> words(List<ClientBuild[]> pairs) {
        return pairs.stream().map(p -> p[0].words() + " -> " + p[1].words()).toList();
    }

    /** A pom whose dependencies take their versions from {@code properties}, committed on the scratch repository. */
    private void commitPom(String properties) throws IOException, InterruptedException {
        Files.writeString(repo.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.team</groupId><artifactId>service</artifactId><version>1</version>
                  <properties>%s</properties>
                  <dependencies>
                    <dependency><groupId>com.squareup.okhttp3</groupId><artifactId>okhttp</artifactId><version>${okhttp.version}</version></dependency>
                    <dependency><groupId>io.netty</groupId><artifactId>netty-handler</artifactId><version>${netty.version}</version></dependency>
                    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>${jackson.version}</version></dependency>
                  </dependencies>
                </project>
                """.formatted(properties));
        if (!Files.isDirectory(repo.resolve(".git"))) {
            git("init", "-q");
        }
        git("add", "pom.xml");
        git("commit", "-q", "-m", "bump");
    }

    private void git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", repo.toString(), "-c", "user.name=t", "-c",
                "user.email=t@example.com"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("git " + String.join(" ", args) + ": " + out);
        }
    }
}

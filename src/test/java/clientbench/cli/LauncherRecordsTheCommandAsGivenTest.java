package clientbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line env.json records ({@code conditions.commandLine}) is the launcher's own line run under bash with the
 * arguments given: bare {@code ./bench} reads {@code ./bench}, and each argument is quoted so the shell reads it back.
 */
@Timeout(60)
class LauncherRecordsTheCommandAsGivenTest {

    static String recorded(String... args) throws Exception {
        String script = Files.readString(Path.of(System.getProperty("user.dir"), "bench"));
        Matcher m = Pattern.compile("(?m)^COMMAND_LINE=.*$").matcher(script);
        assertTrue(m.find(), "COMMAND_LINE in bench");
        List<String> command = new ArrayList<>(List.of("bash", "-c",
                "set -euo pipefail; " + m.group() + "; printf '%s' \"$COMMAND_LINE\"", "bench"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "ended");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void noArgumentsReadAsTheBareCommand() throws Exception {
        assertEquals("./bench", recorded());
    }

    @Test
    void argumentsAreQuotedAsTheShellReadsThemBack() throws Exception {
        assertEquals("./bench --profile quick", recorded("--profile", "quick"));
        assertEquals("./bench -- -p x=a\\ b it\\'s ''", recorded("--", "-p", "x=a b", "it's", ""));
    }
}

package clientbench.cli;

import clientbench.plan.Profile;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher checks the run command's options and profiles itself, so a typo costs no build; its
 * lists are copies of RunCommand's options (with a value, without) and Profile's names, and this keeps them the same.
 */
class LauncherMatchesTheJavaCommandLineTest {

    static List<String> bashArray(String name) throws Exception {
        String script = Files.readString(Path.of(System.getProperty("user.dir"), "bench"));
        Matcher m = Pattern.compile("(?m)^" + name + "=\\(([^)]*)\\)").matcher(script);
        assertTrue(m.find(), name + " in bench");
        return Arrays.asList(m.group(1).trim().split("\\s+"));
    }

    @Test
    void theLauncherKnowsEveryRunOptionThatTakesAValue() throws Exception {
        TreeSet<String> java = new TreeSet<>();
        for (CommandLine.Model.OptionSpec o : new CommandLine(new RunCommand()).getCommandSpec().options()) {
            if (o.arity().max() > 0) {
                java.addAll(Arrays.asList(o.names()));
            }
        }
        assertEquals(java, new TreeSet<>(bashArray("RUN_VALUE_OPTIONS")));
    }

    @Test
    void theLauncherKnowsEveryRunOptionThatTakesNoValue() throws Exception {
        TreeSet<String> java = new TreeSet<>();
        for (CommandLine.Model.OptionSpec o : new CommandLine(new RunCommand()).getCommandSpec().options()) {
            if (o.arity().max() == 0 && !o.usageHelp() && !o.versionHelp()) {
                java.addAll(Arrays.asList(o.names()));
            }
        }
        assertEquals(java, new TreeSet<>(bashArray("RUN_FLAG_OPTIONS")));
    }

    @Test
    void theLaunchersUsageOfUpgradeNamesEachOfItsOptions() throws Exception {
        String script = Files.readString(Path.of(System.getProperty("user.dir"), "bench"));
        Matcher m = Pattern.compile("(?s)  \\./bench upgrade CLIENT OLD NEW(.*?)\n  \\./bench (?!upgrade)").matcher(script);
        assertTrue(m.find(), "./bench upgrade in the launcher's usage");
        for (CommandLine.Model.OptionSpec o : new CommandLine(new UpgradeCommand()).getCommandSpec().options()) {
            // --jdk: as every command's; a hidden option is not the user's
            if (!o.usageHelp() && !o.versionHelp() && !o.hidden() && !o.longestName().equals("--jdk")) {
                assertTrue(m.group(1).contains("[" + o.longestName()), o.longestName() + " in: " + m.group(1));
            }
        }
    }

    @Test
    void theLauncherKnowsEveryProfile() throws Exception {
        assertEquals(Profile.names(), bashArray("PROFILES"));
    }
}

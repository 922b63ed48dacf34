package clientbench.cli;

import picocli.CommandLine;

import java.util.Arrays;

/**
 * {@code ./bench}'s Java side: dispatches a command (run, report, notebook, startup, upgrade, --version) to its class,
 * once the launcher script found the JDK, built and made the venv. {@code check COMMAND ARGS} only checks the arguments
 * (exit 0, or one line and 1 or 2), so the launcher refuses bad input before it builds anything.
 */
public final class Bench {

    private Bench() {
    }

    public static void main(String[] args) {
        System.exit(dispatch(args));
    }

    static int dispatch(String[] args) {
        String command = args.length == 0 ? "run" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        return switch (command) {
            case "-V", "--version" -> {
                System.out.print(Version.text());
                yield 0;
            }
            case "check" -> check(rest);
            default -> {
                Checked cmd = command(command);
                yield cmd == null ? unknown(command) : cli(cmd).execute(rest);
            }
        };
    }

    /** A command whose arguments can be checked without doing anything. */
    interface Checked {
        /** 0 when the arguments are good; else one line on stderr and the exit code (2: usage, 1: the rest). */
        int check() throws Exception;
    }

    private static Checked command(String name) {
        return switch (name) {
            case "run" -> new RunCommand();
            case "report" -> new ReportCommand();
            case "notebook" -> new Notebook();
            case "startup" -> new StartupCommand();
            case "behaviour" -> new BehaviourCommand();
            case "upgrade" -> new UpgradeCommand();
            case "step" -> new StepCommand(); // not for users: one step of an upgrade, in a JVM on a version's jar
            default -> null;
        };
    }

    private static int check(String[] args) throws RuntimeException {
        String name = args.length == 0 ? "run" : args[0];
        Checked cmd = command(name);
        if (cmd == null) {
            return unknown(name);
        }
        CommandLine cl = cli(cmd);
        try {
            cl.parseArgs(Arrays.copyOfRange(args, Math.min(1, args.length), args.length));
            return cl.isUsageHelpRequested() || cl.isVersionHelpRequested() ? 0 : cmd.check();
        } catch (CommandLine.ParameterException e) {
            return usageError(e, args);
        } catch (Exception e) {
            System.err.println("bench: " + e.getMessage());
            return 1;
        }
    }

    private static CommandLine cli(Checked cmd) {
        return new CommandLine(cmd).setParameterExceptionHandler(Bench::usageError);
    }

    private static int unknown(String command) {
        System.err.println("bench: unknown command '" + command + "'");
        return 2;
    }

    static int usageError(CommandLine.ParameterException e, String[] args) {
        System.err.println("bench: " + e.getMessage());
        e.getCommandLine().usage(System.err);
        return 2;
    }
}

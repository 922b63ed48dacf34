package clientbench.cli;

/**
 * Entry point of {@code ./bench} and {@code ./bench report}. The comparison needs the load harness,
 * which is not built yet: until then this says so plainly rather than printing numbers it cannot stand behind.
 */
public final class Bench {

    private Bench() {
    }

    public static void main(String[] args) {
        String command = args.length == 0 ? "run" : args[0];
        switch (command) {
            case "run" -> System.out.println("bench: the comparison is not available yet: the load harness and the "
                    + "adapters are still being built. Try ./bench stub or ./bench test.");
            case "report" -> System.out.println("bench: report rendering is not available yet (analysis.ipynb is a placeholder).");
            default -> {
                System.err.println("bench: unknown command '" + command + "'");
                System.exit(2);
            }
        }
    }
}

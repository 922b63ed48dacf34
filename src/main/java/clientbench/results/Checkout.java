package clientbench.results;

import java.nio.file.Path;

/** The checkout clientbench runs from: results/ under it, analysis/, README.md ({@code clientbench.root}, the launcher's). */
public final class Checkout {

    private Checkout() {
    }

    public static Path root() {
        return Path.of(System.getProperty("clientbench.root", "."));
    }

    /** Where each run's folder goes ({@link RunFolder}). */
    public static Path results() {
        return root().resolve("results");
    }
}

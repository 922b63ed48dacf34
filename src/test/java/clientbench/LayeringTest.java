package clientbench;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The flow each package-info.java states, held on the compiled classes of src/main, src/jmh and server-stub: no room
 * imports one above it, every room has a place in the order, and no packages depend on each other in a circle.
 */
class LayeringTest {

    /**
     * The rooms (top-level packages under clientbench) from the top down: a room may use only rooms in rows below its
     * own, never one in its own row or above. The stub, the api and the jvm package use nothing of clientbench.
     */
    static final List<List<String>> ROOMS_TOP_DOWN = List.of(
            List.of("cli"),
            List.of("run"),
            List.of("report"),
            List.of("results"),
            List.of("plan", "upgrade"),
            List.of("interleave", "jmh", "startup", "behaviour"),
            List.of("harness"),
            List.of("adapters"),
            List.of("api", "jvm", "stub"));

    /** The main classes only, not the tests nor the libraries (nor the classes they use: archunit.properties). */
    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("clientbench");

    @Test
    void noRoomUsesOneInItsRowOrAbove() {
        LayeredArchitecture rule = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .ensureAllClassesAreContainedInArchitecture();
        List<String> above = new ArrayList<>();
        for (List<String> row : ROOMS_TOP_DOWN) {
            for (String room : row) {
                rule = rule.layer(room).definedBy("clientbench." + room + "..");
                rule = above.isEmpty() ? rule.whereLayer(room).mayNotBeAccessedByAnyLayer()
                        : rule.whereLayer(room).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
            }
            above.addAll(row);
        }
        rule.check(MAIN);
    }

    @Test
    void noRoomsDependOnEachOtherInACircle() {
        slices().matching("clientbench.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void noPackagesDependOnEachOtherInACircle() {
        slices().matching("clientbench.(**)").should().beFreeOfCycles().check(MAIN);
    }
}

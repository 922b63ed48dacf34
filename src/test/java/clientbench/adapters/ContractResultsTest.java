package clientbench.adapters;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The contract's tally keeps its three kinds apart, case by case as JUnit reports them: a refusal is counted as
 * refused, never as passed; a skip fails. The cases are driven through the extension's callbacks in the order JUnit
 * calls them, with contexts whose store is JUnit's (a case's falls back to its class's).
 */
class ContractResultsTest {

    final ContractResults results = new ContractResults();
    final List<String> published = new ArrayList<>();
    final ExtensionContext suite = context(null, "FakeContractTest");

    @Test
    void eachKindIsCountedApartAndARefusalIsNeverAPass() throws Throwable {
        results.beforeAll(suite);

        ExtensionContext passes = context(suite, "passes");
        results.testSuccessful(passes);

        ExtensionContext refused = context(suite, "refused");
        assertDoesNotThrow(() -> results.handleTestExecutionException(refused,
                new ContractResults.Refused("refused HTTP/2: no h2 here")), "an asserted refusal ends the case as passed");
        results.testSuccessful(refused);

        ExtensionContext skips = context(suite, "skips");
        AssertionFailedError f = assertThrows(AssertionFailedError.class, () -> results.handleTestExecutionException(skips,
                new TestAbortedException("assumption failed")), "a skip fails the case");
        results.testFailed(skips, f);

        ExtensionContext fails = context(suite, "fails");
        results.testFailed(fails, new AssertionError("wrong status"));

        // After a refusal, the next case that passes is a pass: the refusal stays in its own case's store.
        ExtensionContext passesAgain = context(suite, "passesAgain");
        results.testSuccessful(passesAgain);

        results.afterAll(suite);
        assertEquals(List.of("contract=contract FakeContractTest: 2 passed, 1 refused (1 refused HTTP/2: no h2 here), "
                + "2 failed"), published);
    }

    /** A context as JUnit gives it: a store per context, a case's looking in its class's for what it lacks. */
    ExtensionContext context(ExtensionContext parent, String name) {
        Map<Object, Object> own = new HashMap<>();
        ExtensionContext.Store store = (ExtensionContext.Store) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ExtensionContext.Store.class}, (p, m, args) -> switch (m.getName()) {
                    case "put" -> own.put(args[0], args[1]);
                    case "get" -> own.containsKey(args[0]) ? own.get(args[0])
                            : parent == null ? null : parent.getStore(null).get(args[0], (Class<?>) args[1]);
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        Method method = parent == null ? null : caseMethod();
        return (ExtensionContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ExtensionContext.class},
                (p, m, args) -> switch (m.getName()) {
                    case "getStore" -> store;
                    case "getTestInstance" -> Optional.empty();
                    case "getDisplayName" -> parent == null ? name : name + "()";
                    case "getRequiredTestMethod" -> method;
                    case "publishReportEntry" -> published.add(args[0] + "=" + args[1]);
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    static Method caseMethod() {
        try {
            return ContractResultsTest.class.getDeclaredMethod("eachKindIsCountedApartAndARefusalIsNeverAPass");
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}

package clientbench.adapters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Three kinds of result per client, so no count hides another: passed; {@link Refused} (a protocol's refusal
 * asserted); failed. A case never skips: a skip fails it. After each class: {@code contract <client>: N passed,
 * N refused, N failed}, with the refusals' whys.
 */
final class ContractResults implements BeforeAllCallback, TestExecutionExceptionHandler, TestWatcher, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ContractResults.class);

    /** Ends a case whose protocol the client refuses, after the refusal has been asserted; the case passes as "refused". */
    static final class Refused extends RuntimeException {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** One class's tally; cases of one class may finish on several threads. */
    private static final class Tally {
        String client;
        int passed;
        int failed;
        final Map<String, List<String>> refused = new TreeMap<>();

        synchronized String line(String fallbackName) {
            return "contract " + (client == null ? fallbackName : client) + ": " + passed + " passed, "
                    + count(refused) + " refused" + reasons(refused) + ", " + failed + " failed";
        }

        private static int count(Map<String, List<String>> byReason) {
            return byReason.values().stream().mapToInt(List::size).sum();
        }

        private static String reasons(Map<String, List<String>> byReason) {
            StringBuilder b = new StringBuilder();
            byReason.forEach((why, cases) -> b.append(b.isEmpty() ? " (" : "; ").append(cases.size()).append(" ").append(why));
            return b.isEmpty() ? "" : b.append(')').toString();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put(Tally.class, new Tally());
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (thrown instanceof Refused r) {
            context.getStore(NAMESPACE).put(Refused.class, r.getMessage());
            return; // the refusal was asserted: the case passes, counted as refused
        }
        if (thrown instanceof TestAbortedException a) {
            throw new AssertionFailedError("a contract case never skips; this one skipped with: " + a.getMessage(), a);
        }
        throw thrown;
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
        String refusal = context.getStore(NAMESPACE).get(Refused.class, String.class);
        record(context, t -> {
            if (refusal == null) {
                t.passed++;
            } else {
                t.refused.computeIfAbsent(refusal, k -> new ArrayList<>()).add(caseName(context));
            }
        });
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        record(context, t -> t.failed++);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        String line = context.getStore(NAMESPACE).get(Tally.class, Tally.class).line(context.getDisplayName());
        System.out.println(line);
        context.publishReportEntry("contract", line);
    }

    private static void record(ExtensionContext context, java.util.function.Consumer<Tally> change) {
        Tally t = context.getStore(NAMESPACE).get(Tally.class, Tally.class);
        synchronized (t) {
            context.getTestInstance().ifPresent(i -> t.client = ((AdapterContractTest) i).adapterName());
            change.accept(t);
        }
    }

    private static String caseName(ExtensionContext context) {
        String method = context.getRequiredTestMethod().getName();
        String shown = context.getDisplayName();
        return shown.startsWith(method) ? method : method + " " + shown;
    }
}

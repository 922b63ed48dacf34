package clientbench.adapters;

/** {@link clientbench.adapters.helidon.HelidonAdapter} against the adapter contract. */
class HelidonAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "helidon";
    }

    /**
     * Helidon has no I/O threads to set: blocking sockets on virtual threads. Overrides main's
     * {@code AdapterContractTest.takesIoThreads()} once this branch is merged (no {@code @Override} until then).
     */
    protected boolean takesIoThreads() {
        return false;
    }
}

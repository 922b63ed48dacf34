package clientbench.adapters;

/** {@link clientbench.adapters.helidon.HelidonAdapter} against the adapter contract. */
class HelidonAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "helidon";
    }

    /** Helidon has no I/O threads to set: blocking sockets on virtual threads. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }
}

package clientbench.adapters;

/** {@link HelidonAdapter} against the adapter contract. */
class HelidonAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "helidon";
    }
}

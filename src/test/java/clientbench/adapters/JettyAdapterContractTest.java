package clientbench.adapters;

/** {@link JettyAdapter} against the adapter contract. */
class JettyAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "jetty";
    }
}

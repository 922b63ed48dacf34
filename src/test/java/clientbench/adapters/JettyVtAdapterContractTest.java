package clientbench.adapters;

/** {@link JettyVtAdapter} against the adapter contract. */
class JettyVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "jetty-vt";
    }
}

package clientbench.adapters;

/** {@link ApacheVtAdapter} against the adapter contract. */
class ApacheVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "apache-vt";
    }
}

package clientbench.adapters;

/** {@link ApacheAdapter} against the adapter contract. */
class ApacheAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "apache";
    }
}

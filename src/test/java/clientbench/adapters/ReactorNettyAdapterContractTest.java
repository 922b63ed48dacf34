package clientbench.adapters;

/** {@link ReactorNettyAdapter} against the adapter contract. */
class ReactorNettyAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "reactor";
    }
}

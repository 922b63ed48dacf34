package clientbench.adapters;

/** {@link JdkVtAdapter} against the adapter contract. */
class JdkVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "jdk-vt";
    }
}

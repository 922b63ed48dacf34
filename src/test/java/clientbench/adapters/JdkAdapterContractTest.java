package clientbench.adapters;

/** {@link JdkAdapter} against the adapter contract. */
class JdkAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "jdk";
    }
}

package clientbench.adapters;

/** {@link OkHttpAdapter} against the adapter contract. */
class OkHttpAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "okhttp";
    }
}

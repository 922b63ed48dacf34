package clientbench.adapters;

/** {@link OkHttpVtAdapter} against the adapter contract. */
class OkHttpVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "okhttp-vt";
    }
}

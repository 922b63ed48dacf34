package clientbench.adapters;

/** {@link VertxAdapter} against the adapter contract. */
class VertxAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "vertx";
    }
}

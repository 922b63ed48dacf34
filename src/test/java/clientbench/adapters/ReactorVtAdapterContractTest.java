package clientbench.adapters;

/**
 * {@link clientbench.adapters.reactor.ReactorVtAdapter} against the adapter contract: the reactor adapter's engine, so
 * its retries and its library timeout's exception, blocked on from virtual threads.
 */
class ReactorVtAdapterContractTest extends ReactorNettyAdapterContractTest {

    @Override
    protected String adapterName() {
        return "reactor-vt";
    }
}

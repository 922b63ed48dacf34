package clientbench.adapters;

/** {@link ApacheVtAdapter} against the adapter contract: the classic client has no HTTP/2. */
class ApacheVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "apache-vt";
    }

    @Override
    protected boolean refusesHttp2() {
        return true;
    }
}

package clientbench.adapters;

/**
 * {@link AhcAdapter}: AsyncHttpClient rejects, rather than queues, requests that find every connection busy,
 * and the adapter refuses HTTP/2 (see its class comment).
 */
class AhcAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "ahc";
    }

    @Override
    protected boolean rejectsWhenAllConnectionsBusy() {
        return true;
    }

    @Override
    protected boolean refusesHttp2() {
        return true;
    }
}

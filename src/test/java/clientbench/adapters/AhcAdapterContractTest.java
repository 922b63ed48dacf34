package clientbench.adapters;

/** {@link AhcAdapter}: AsyncHttpClient rejects, rather than queues, requests that find every connection busy. */
class AhcAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "ahc";
    }

    @Override
    protected boolean rejectsWhenAllConnectionsBusy() {
        return true;
    }
}

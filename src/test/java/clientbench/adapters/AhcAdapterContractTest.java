package clientbench.adapters;

import clientbench.adapters.ahc.AhcAdapter;

/**
 * {@link AhcAdapter}: AsyncHttpClient rejects, rather than queues, requests that find every connection busy.
 * Its HTTP/2 runs with the adapter's work-arounds for the library's bugs ({@link AhcHttp2LibraryBehaviourTest}).
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
}

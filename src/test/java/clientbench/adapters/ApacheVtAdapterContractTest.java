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

    /** No I/O-thread knob: the classic client has no I/O threads: it does blocking I/O on each request's virtual thread. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }
}

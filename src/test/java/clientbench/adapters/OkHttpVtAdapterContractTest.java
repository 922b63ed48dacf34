package clientbench.adapters;

import java.util.List;

/** {@link OkHttpVtAdapter} against the adapter contract: over TLS it offers http/1.1 next to h2. */
class OkHttpVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "okhttp-vt";
    }

    @Override
    protected List<String> alpnOffersForH2() {
        return List.of("h2", "http/1.1");
    }

    /** No I/O-thread knob: OkHttp has no I/O threads: it does blocking I/O on each request's virtual thread. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }
}

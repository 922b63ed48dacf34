package clientbench.adapters;

import java.util.List;

/**
 * {@link JdkVtAdapter} against the adapter contract: h2c by Upgrade, over TLS it offers http/1.1 next to h2,
 * it resends a GET whose connection dies, and it has one selector thread.
 */
class JdkVtAdapterContractTest extends JdkEngineContractTest {

    @Override
    protected String adapterName() {
        return "jdk-vt";
    }

    @Override
    protected List<String> alpnOffersForH2() {
        return List.of("h2", "http/1.1");
    }

    @Override
    protected boolean h2cByUpgrade() {
        return true;
    }
}

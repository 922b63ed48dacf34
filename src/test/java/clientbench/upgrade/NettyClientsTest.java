package clientbench.upgrade;

import clientbench.adapters.Adapters;
import clientbench.adapters.support.NettyLibrary;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.startup.ClientArtifacts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A Netty bump is measured on the default clients whose live adapters record the Netty they run on (each contract test
 * holds that record to the client's own Netty threads), and on no other. A deadline of its own: it starts and closes a
 * dozen clients, seconds on a loaded machine.
 */
class NettyClientsTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aNettyBumpMovesTheDefaultClientsThatRecordNetty() throws Exception {
        AdapterConfig config = AdapterConfig.defaults(URI.create("http://127.0.0.1:9"));
        TreeSet<String> onNetty = new TreeSet<>();
        for (String client : Adapters.names()) {
            try (HttpClientAdapter a = Adapters.create(client, config)) {
                if (a.settings().containsKey(NettyLibrary.KEY)) {
                    onNetty.add(ClientArtifacts.base(client));
                }
            }
        }
        assertEquals(List.copyOf(onNetty), MeasuredClients.NETTY_CLIENTS);
        assertEquals(DependencyDiffTest.NETTY_CLIENTS, MeasuredClients.NETTY_CLIENTS);
    }
}

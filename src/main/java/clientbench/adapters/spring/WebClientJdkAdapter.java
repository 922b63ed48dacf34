package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's WebClient over {@code JdkClientHttpConnector}, on the JDK's HttpClient as the jdk adapter builds
 * it: {@link WebClientAdapter}.
 */
public final class WebClientJdkAdapter extends WebClientAdapter {

    public WebClientJdkAdapter(AdapterConfig config) {
        super(config, "webclient-jdk", "jdk", WebClients::jdk);
    }
}

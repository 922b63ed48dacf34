package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's WebClient over {@code HttpComponentsClientHttpConnector}, on Apache HttpClient 5 async as the
 * apache adapter builds it, through httpcore5-reactive (HTTP/1.1): {@link WebClientAdapter}.
 */
public final class WebClientApacheAdapter extends WebClientAdapter {

    public WebClientApacheAdapter(AdapterConfig config) {
        super(config, "webclient-apache", "apache", WebClients::apache);
    }
}

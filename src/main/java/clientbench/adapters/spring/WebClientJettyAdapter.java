package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's WebClient over {@code JettyClientHttpConnector}, on Jetty HttpClient 12 as the jetty adapter builds
 * it, through jetty-reactive-httpclient: {@link WebClientAdapter}.
 */
public final class WebClientJettyAdapter extends WebClientAdapter {

    public WebClientJettyAdapter(AdapterConfig config) {
        super(config, "webclient-jetty", "jetty", WebClients::jetty);
    }
}

package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's RestClient over {@code JettyClientHttpRequestFactory}, on Jetty HttpClient 12 as jetty-vt builds
 * it: {@link RestClientAdapter}.
 */
public final class RestClientJettyAdapter extends RestClientAdapter {

    public RestClientJettyAdapter(AdapterConfig config) {
        super(config, "restclient-jetty", "jetty-vt", RestClients::jetty);
    }
}

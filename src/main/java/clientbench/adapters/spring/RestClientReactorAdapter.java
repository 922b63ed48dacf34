package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's RestClient over {@code ReactorClientHttpRequestFactory}, on Reactor Netty as reactor-vt builds it:
 * {@link RestClientAdapter}.
 */
public final class RestClientReactorAdapter extends RestClientAdapter {

    public RestClientReactorAdapter(AdapterConfig config) {
        super(config, "restclient-reactor", "reactor-vt", RestClients::reactor);
    }
}

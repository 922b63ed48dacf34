package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's WebClient over {@code ReactorClientHttpConnector}, on Reactor Netty as the reactor adapter builds
 * it: {@link WebClientAdapter}.
 */
public final class WebClientReactorAdapter extends WebClientAdapter {

    public WebClientReactorAdapter(AdapterConfig config) {
        super(config, "webclient-reactor", "reactor", WebClients::reactor);
    }
}

package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's RestClient over {@code HttpComponentsClientHttpRequestFactory}, on Apache HttpClient 5 classic as
 * apache-vt builds it (HTTP/1.1 only): {@link RestClientAdapter}.
 */
public final class RestClientApacheAdapter extends RestClientAdapter {

    public RestClientApacheAdapter(AdapterConfig config) {
        super(config, "restclient-apache", "apache-vt", RestClients::apache);
    }
}

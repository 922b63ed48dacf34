package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * Spring's RestClient over {@code JdkClientHttpRequestFactory}, on the JDK's HttpClient as jdk-vt builds it:
 * {@link RestClientAdapter}.
 */
public final class RestClientJdkAdapter extends RestClientAdapter {

    public RestClientJdkAdapter(AdapterConfig config) {
        super(config, "restclient-jdk", "jdk-vt", RestClients::jdk);
    }
}

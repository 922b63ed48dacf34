package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * restclient-apache observed as a Spring Boot application with Actuator observes it ({@link BootActuator}): the
 * RestClient Boot picks first, compared with itself unobserved.
 */
public final class RestClientApacheActuatorAdapter extends RestClientAdapter {

    public RestClientApacheActuatorAdapter(AdapterConfig config) {
        super(config, "restclient-apache-actuator", "restclient-apache", RestClients::apache, true);
    }
}

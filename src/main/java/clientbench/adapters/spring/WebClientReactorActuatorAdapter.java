package clientbench.adapters.spring;

import clientbench.api.AdapterConfig;

/**
 * webclient-reactor observed as a Spring Boot application with Actuator observes it ({@link BootActuator}): the
 * WebClient Boot picks first, compared with itself unobserved.
 */
public final class WebClientReactorActuatorAdapter extends WebClientAdapter {

    public WebClientReactorActuatorAdapter(AdapterConfig config) {
        super(config, "webclient-reactor-actuator", "webclient-reactor", WebClients::reactor, true);
    }
}

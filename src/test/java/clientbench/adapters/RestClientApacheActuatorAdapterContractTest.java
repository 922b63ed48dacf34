package clientbench.adapters;

/**
 * {@link clientbench.adapters.spring.RestClientApacheActuatorAdapter} against the adapter contract: restclient-apache's,
 * observed as Boot with Actuator observes it.
 */
class RestClientApacheActuatorAdapterContractTest extends RestClientApacheAdapterContractTest {

    @Override
    protected String adapterName() {
        return "restclient-apache-actuator";
    }
}

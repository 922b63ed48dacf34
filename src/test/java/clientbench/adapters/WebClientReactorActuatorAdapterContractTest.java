package clientbench.adapters;

/**
 * {@link clientbench.adapters.spring.WebClientReactorActuatorAdapter} against the adapter contract: webclient-reactor's,
 * observed as Boot with Actuator observes it.
 */
class WebClientReactorActuatorAdapterContractTest extends WebClientReactorAdapterContractTest {

    @Override
    protected String adapterName() {
        return "webclient-reactor-actuator";
    }
}

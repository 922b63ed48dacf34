package clientbench.behaviour.alone;

import clientbench.stub.StubServer;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The h2-goaway case, for a library called directly: one caller, 40 requests in turn, a GOAWAY every 20th stream. */
final class RefusedStreams {

    private RefusedStreams() {
    }

    /**
     * The stub refuses the 20th and 40th streams, unprocessed and safe to send again, and reads every other request
     * once; the library failed both refused ones. The outcomes, for the library's own words.
     */
    static Map<String, Integer> assertBothFail(StubServer stub, InTurn.Send send) throws Exception {
        Map<String, Integer> outcomes = InTurn.run(1, 40, "r-", send);
        assertAll(outcomes + "; stub " + stub.tally().toJson(),
                () -> assertEquals(2, stub.tally().goAways(), "a GOAWAY at the 20th and the 40th stream"),
                () -> assertEquals(2, InTurn.failed(outcomes), "both refused streams failed"),
                () -> assertEquals(38, StubHabits.reads(stub, "r-"), "the stub read every other request, once"));
        return outcomes;
    }
}

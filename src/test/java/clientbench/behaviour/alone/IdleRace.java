package clientbench.behaviour.alone;

import clientbench.stub.StubServer;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The idle race, for a library called directly: a POST whose idle connection the stub closes as its head arrives. */
final class IdleRace {

    /** One request to {@code url}, keyed {@code key}, sent and waited for: its status, or the failure's class. */
    interface Send {
        String send(String url, String key) throws Exception;
    }

    private IdleRace() {
    }

    /**
     * A GET gives the connection the habit; 500 ms later a POST goes out on it and the stub closes it under the POST's
     * head, unanswered: the library sent the POST again, so the stub read it twice and the caller saw 200.
     */
    static void assertThePostIsSentTwice(StubServer stub, Send get, Send post) throws Exception {
        String url = stub.uri() + StubHabits.RACE;
        assertEquals("200", get.send(url, "idle-from-here"), "its connection takes on the habit");
        Thread.sleep(StubHabits.IDLE.toMillis());
        String posted = post.send(url, "race-post");
        assertAll("POST: " + posted + "; stub " + stub.tally().toJson(),
                () -> assertEquals(1, stub.tally().raceCloses(), "the stub closed the connection under the POST's head"),
                () -> assertEquals(Map.of("race-post", 2), stub.seen("race-post"), "and read the POST twice"),
                () -> assertEquals("200", posted, "the caller never knew"));
    }
}

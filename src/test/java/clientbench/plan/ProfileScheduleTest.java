package clientbench.plan;

import clientbench.adapters.Adapters;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order of a comparison's JMH runs ({@link Schedule}): rounds, each running every shape with that many rounds,
 * each shape's clients and noop once per round in an order of the round's own; a shape's first round before any
 * second round.
 */
class ProfileScheduleTest {

    private static final List<String> CLIENTS = List.of("jdk", "okhttp", "apache", "vertx");

    private static List<String> order(List<Schedule.Step> steps, String shape, int round) {
        List<String> out = new ArrayList<>();
        for (Schedule.Step s : steps) {
            if (s.shape().name().equals(shape) && s.round() == round) {
                out.add(s.client());
            }
        }
        return out;
    }

    @Test
    void everyRoundRunsEachClientAndNoopOnceAndEveryShapesFirstRoundComesFirst() {
        Profile p = Profile.named("standard");
        List<Schedule.Step> steps = Schedule.of(p.shapes(), CLIENTS, 42);
        for (Shape shape : p.shapes()) {
            for (int round = 1; round <= shape.rounds(); round++) {
                List<String> order = order(steps, shape.name(), round);
                assertEquals(new HashSet<>(shape.clients(CLIENTS)), new HashSet<>(order), shape.name() + " round " + round);
                assertEquals(shape.clients(CLIENTS).size(), order.size(), "once each: " + order);
            }
            assertTrue(order(steps, shape.name(), shape.rounds() + 1).isEmpty(), "no more rounds than the shape has");
        }
        int lastFirstRound = 0;
        int firstSecondRound = Integer.MAX_VALUE;
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).round() == 1) {
                lastFirstRound = i;
            } else {
                firstSecondRound = Math.min(firstSecondRound, i);
            }
        }
        assertTrue(lastFirstRound < firstSecondRound, "round 1 of every shape before any round 2");
        assertTrue(p.shapes().stream().anyMatch(s -> s.rounds() > 1), "the premise: standard has rounds");
    }

    @Test
    void theRoundsOfAShapeDrawTheirOrdersAnewAndTheSeedRepeatsThem() {
        Shape shape = Profile.named("standard").shapes().get(0);
        assertTrue(shape.rounds() >= 3 && shape.baseline(), "the premise: three rounds with noop");
        Set<List<String>> orders = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            List<Schedule.Step> steps = Schedule.of(List.of(shape), CLIENTS, seed);
            for (int round = 1; round <= shape.rounds(); round++) {
                orders.add(order(steps, shape.name(), round));
            }
            assertEquals(steps, Schedule.of(List.of(shape), CLIENTS, seed), "the same seed, the same orders");
        }
        // 5! = 120 orders of four clients and noop; 60 draws landing on a handful would mean no shuffle at all.
        assertTrue(orders.size() > 20, orders.size() + " distinct orders in 60 rounds");
        assertTrue(orders.stream().anyMatch(o -> !o.get(o.size() - 1).equals(Adapters.NOOP)), "noop is shuffled too");
    }

    @Test
    void aShapeWithoutBaselineRunsNoNoopAndOneRoundShapesRunOnce() {
        Profile p = Profile.named("standard");
        List<Schedule.Step> steps = Schedule.of(p.shapes(), CLIENTS, 7);
        Shape capacity = p.shapes().stream().filter(s -> s.name().equals("capacity-http1")).findFirst().orElseThrow();
        assertTrue(steps.stream().noneMatch(s -> s.shape() == capacity && s.client().equals(Adapters.NOOP)));
        for (Shape shape : p.shapes()) {
            long forks = steps.stream().filter(s -> s.shape() == shape).count();
            assertEquals((long) shape.rounds() * shape.clients(CLIENTS).size(), forks, shape.name());
        }
    }

    /** Standard's hour holds the default set with every shape; the spring family's clients, more, run less. */
    @Test
    void aProfileRunWithMoreThanTheDefaultClientsCutsItsLeastRankingWork() {
        Profile standard = Profile.named("standard");
        assertEquals(standard, standard.fittedTo(Adapters.names().size()));
        int spring = Profile.clients(Adapters.SPRING).size();
        Profile fitted = standard.fittedTo(spring);
        assertEquals(List.of("rate-4000", "closed-x16"), fitted.shapes().stream().map(Shape::name).toList());
        assertEquals(List.of(3, 2), fitted.shapes().stream().map(Shape::rounds).toList());
        assertEquals(new Profile.Startup(5, 2, 2, true), fitted.startup());
        assertEquals(standard.shapes().get(1).timings(), fitted.shapes().get(1).timings());
        assertTrue(fitted.purpose().endsWith("; this run leaves out capacity-http1, delay1s-1000, faults-1000, runs closed-x16 in"
                + " 2 rounds, not 3, starts each client cold 5 times, not 10: its 1h00m holds 12 clients with every"
                + " shape, not " + spring), fitted.purpose());
        assertEquals(standard.timeLimit(), fitted.timeLimit());
        Profile full = Profile.named("full"); // no time limit: every shape, whatever the clients
        assertEquals(full, full.fittedTo(spring));
        Profile quick = Profile.named("quick"); // none of them to leave out
        assertEquals(quick, quick.fittedTo(spring));
    }
}

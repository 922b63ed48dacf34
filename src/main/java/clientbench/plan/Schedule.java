package clientbench.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order of a comparison's runs: rounds, each running every shape that has that many, each client and noop once,
 * shuffled with the run's seed. Hosts slow in spells of minutes: in rounds a spell costs every client alike and shows
 * in the spread the intervals rest on. Every shape's first round comes first, so a shape's rounds lie far apart.
 */
public final class Schedule {

    private Schedule() {
    }

    /**
     * One JMH run of a comparison: a shape, a client, the round (1-based) of how many the shape has.
     */
    public record Step(Shape shape, String client, int round, int rounds) {

        /** "round 1/3" for the terminal and env.json. */
        public String roundWords() {
            return "round " + round + "/" + rounds;
        }
    }

    /** Every step, rounds in order; within a round each shape's clients in a new order drawn from {@code seed}. */
    public static List<Step> of(List<Shape> shapes, List<String> chosen, long seed) {
        Random random = new Random(seed);
        int most = shapes.stream().mapToInt(Shape::rounds).max().orElse(0);
        List<Step> out = new ArrayList<>();
        for (int round = 1; round <= most; round++) {
            for (Shape shape : shapes) {
                if (shape.rounds() >= round) {
                    out.addAll(block(shape, chosen, round, random));
                }
            }
        }
        return out;
    }

    /**
     * An upgrade's steps: in each round every shape runs {@code first}, {@code noop} (where it has a baseline), then
     * {@code second}, the other way round in even rounds (A B, B A), so over an even number of rounds a drift within a
     * round costs both alike.
     */
    public static List<Step> alternating(List<Shape> shapes, String first, String second) {
        int most = shapes.stream().mapToInt(Shape::rounds).max().orElse(0);
        List<Step> out = new ArrayList<>();
        for (int round = 1; round <= most; round++) {
            for (Shape shape : shapes) {
                if (shape.rounds() < round) {
                    continue;
                }
                List<String> order = new ArrayList<>(shape.clients(List.of(first, second)));
                order.remove(second);
                order.add(second); // noop, where there is one, between the two
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (String client : order) {
                    out.add(new Step(shape, client, round, shape.rounds()));
                }
            }
        }
        return out;
    }

    /** One shape's round: its clients (noop included), shuffled. */
    public static List<Step> block(Shape shape, List<String> chosen, int round, Random random) {
        List<String> clients = new ArrayList<>(shape.clients(chosen));
        Collections.shuffle(clients, random);
        List<Step> out = new ArrayList<>();
        for (String client : clients) {
            out.add(new Step(shape, client, round, shape.rounds()));
        }
        return out;
    }
}

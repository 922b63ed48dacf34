package clientbench.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order a comparison's JMH runs take: rounds, each running every shape that has that many rounds, and in each
 * shape every client and {@code noop} once, one fork each, in an order of the round's own (shuffled with the run's
 * seed). On this project's shared 2-core machines the host slows in spells of minutes: run in rounds, a spell costs
 * every client alike over the rounds, each round's clients can be compared within it, and the spread between rounds
 * (which each figure's interval rests on) includes how the run's moments differ. The first round of every shape
 * comes first, so that a shape's rounds lie far apart in the run.
 */
final class Schedule {

    private Schedule() {
    }

    /**
     * One JMH run of a comparison: a shape, a client, the round (1-based) of how many the shape has.
     */
    record Step(Shape shape, String client, int round, int rounds) {

        /** "round 1/3" for the terminal and env.json. */
        String roundWords() {
            return "round " + round + "/" + rounds;
        }
    }

    /** Every step, rounds in order; within a round each shape's clients in a new order drawn from {@code seed}. */
    static List<Step> of(List<Shape> shapes, List<String> chosen, long seed) {
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
     * An upgrade's steps: in each round every shape runs {@code first}, {@code noop} (where the shape has a baseline),
     * then {@code second}, in that order in odd rounds and the other way round in even ones (A B, B A, ...), so that
     * over an even number of rounds a drift within a round costs both versions alike; noop, between them, stands as far
     * from each.
     */
    static List<Step> alternating(List<Shape> shapes, String first, String second) {
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
    static List<Step> block(Shape shape, List<String> chosen, int round, Random random) {
        List<String> clients = new ArrayList<>(shape.clients(chosen));
        Collections.shuffle(clients, random);
        List<Step> out = new ArrayList<>();
        for (String client : clients) {
            out.add(new Step(shape, client, round, shape.rounds()));
        }
        return out;
    }
}

"""The pairwise comparison and its letters, on numbers made to a known answer."""
import math
import random

import pytest

from clientbench_stats import BETTER, TIED, compare, letters, words


def rounds(*xs):
    return {i + 1: x for i, x in enumerate(xs)}


def test_letters_follow_the_separated_pairs_and_start_at_the_best():
    order = ["a", "b", "c", "d"]
    got = letters(order, {("a", "c"), ("d", "a"), ("b", "d")})
    assert got == {"a": "a", "b": "ab", "c": "b", "d": "c"} or got == {"a": "a", "b": "ab", "c": "bc", "d": "c"}
    # every separated pair shares no letter; every other pair shares one
    for x in order:
        for y in order:
            if x < y:
                apart = {x, y} in ({"a", "c"}, {"a", "d"}, {"b", "d"})
                assert (not set(got[x]) & set(got[y])) == apart, (x, y, got)


def test_nothing_separated_is_one_letter_and_everything_separated_is_one_each():
    assert letters(["x", "y", "z"], set()) == {"x": "a", "y": "a", "z": "a"}
    every = {("x", "y"), ("x", "z"), ("y", "z")}
    assert letters(["x", "y", "z"], every) == {"x": "a", "y": "b", "z": "c"}


def test_an_interval_that_contains_the_leaders_never_lets_it_lead_alone():
    # The tie_groups reproducer: C's spread is wide enough to hold A's knee. A chain rule compared C with B only
    # and called A clear of the rest; pairwise, A and C share a letter.
    c = compare({"A": rounds(10000, 10250, 10500), "B": rounds(8000, 8200, 8400), "C": rounds(3000, 6000, 12000)},
                higher_is_better=True)
    assert c.order[0] == "A"
    assert c.relation("A", "C") == TIED
    assert set(c.letters["A"]) & set(c.letters["C"])
    assert c.low["C"] <= c.estimate["A"] <= c.high["C"]


def test_clients_far_apart_are_told_apart_however_many_lie_between():
    # Five clients 8% apart in a chain: neighbours may tie, the ends never do.
    rnd = random.Random(3)
    base = [50540, 46800, 43300, 40100, 37100, 33115]
    values = {f"c{i}": rounds(*(b * math.exp(rnd.gauss(0, 0.02)) for _ in range(3))) for i, b in enumerate(base)}
    c = compare(values, higher_is_better=True)
    assert c.relation("c0", "c5") == BETTER
    assert not set(c.letters["c0"]) & set(c.letters["c5"])


def test_a_round_that_slowed_every_client_does_not_hide_a_ten_percent_difference():
    spell = [1.0, 1.4, 1.0, 0.8]
    rnd = random.Random(5)
    values = {name: rounds(*(cost * f * math.exp(rnd.gauss(0, 0.01)) for f in spell))
              for name, cost in (("lean", 100.0), ("heavy", 110.0))}
    c = compare(values, higher_is_better=False)
    assert c.order == ["lean", "heavy"]
    assert c.relation("lean", "heavy") == BETTER
    assert c.sd < 0.03, "the round effect is taken out, not left in the spread"


def test_twelve_clients_from_one_distribution_are_not_told_apart():
    # An A/A comparison: any separation would be a false one (5% family-wise at most; the seeds are fixed).
    for seed in range(5):
        rnd = random.Random(seed)
        values = {f"c{i}": rounds(*(100 * math.exp(rnd.gauss(0, 0.05)) for _ in range(3))) for i in range(12)}
        c = compare(values, higher_is_better=False)
        assert c.separated == 0, (seed, c.pairs)
        assert len(c.tiers()) == 1


def test_a_noisy_client_is_judged_on_its_own_spread():
    rnd = random.Random(11)
    steady = {f"s{i}": rounds(*(100 * (1 + 0.1 * i) * math.exp(rnd.gauss(0, 0.01)) for _ in range(3))) for i in range(6)}
    noisy = {"noisy": rounds(60, 130, 95)}
    c = compare({**steady, **noisy}, higher_is_better=False)
    assert c.high["noisy"] / c.low["noisy"] > 2 * c.high["s0"] / c.low["s0"], "its interval is its own, wider"
    assert c.relation("noisy", "s0") == TIED and c.relation("noisy", "s3") == TIED


def test_a_lower_bound_is_never_found_worse():
    c = compare({"open": rounds(4000, 4000, 4000), "fast": rounds(30000, 31000, 32000), "slow": rounds(2000, 2050, 1990)},
                higher_is_better=True, lower_bounds={"open"})
    assert c.relation("fast", "open") == TIED
    assert ("fast", "open") in c.withheld
    assert c.relation("open", "slow") == BETTER, "better than another is still known"


def test_one_round_compares_on_the_windows_and_says_so():
    c = compare({"a": {1: 10.0}, "b": {1: 20.0}}, higher_is_better=False,
                windows={"a": [10.0, 10.1, 9.9], "b": [20.0, 20.3, 19.8]})
    assert c.method == "windows"
    assert c.relation("a", "b") == BETTER


def test_one_round_without_windows_separates_nothing():
    c = compare({"a": {1: 10.0}, "b": {1: 20.0}}, higher_is_better=False)
    assert c.method == "none"
    assert c.separated == 0 and c.high["a"] == math.inf


def test_values_that_are_not_positive_are_left_out():
    c = compare({"a": rounds(10, 11, 10), "b": rounds(0, -1, 0)}, higher_is_better=False)
    assert c.order == ["a"]


def test_words_group_clients_with_the_same_letters_in_order():
    c = compare({"x": rounds(10, 10.1, 9.9), "y": rounds(10.05, 10.0, 10.1), "z": rounds(30, 31, 29)},
                higher_is_better=False)
    assert words(c, str, False) == "x, y (a) < z (b)" or words(c, str, False) == "y, x (a) < z (b)"
    assert words(c, str, True).count(" > ") == 1


@pytest.mark.parametrize("n", [2, 3, 12])
def test_tiers_hold_every_client_best_first(n):
    rnd = random.Random(n)
    values = {f"c{i:02d}": rounds(*(10 * (1.5 ** i) * math.exp(rnd.gauss(0, 0.02)) for _ in range(3))) for i in range(n)}
    c = compare(values, higher_is_better=False)
    assert sorted(c for t in c.tiers() for c in t) == sorted(set(values)) or len({c for t in c.tiers() for c in t}) == n
    assert c.tiers()[0][0] == "c00"


def test_a_figure_without_spread_is_told_apart_wherever_the_values_differ():
    c = compare({"a": rounds(1411, 1411, 1411), "b": rounds(1293, 1293, 1293), "c": rounds(1293, 1293, 1293)},
                higher_is_better=False)
    assert c.method == "exact"
    assert c.relation("b", "a") == BETTER and c.relation("b", "c") == TIED
    assert c.letters["b"] == c.letters["c"] != c.letters["a"]

"""The pairwise comparison and its letters, on numbers made to a known answer."""
import math
import random

import pytest

from analysis.stats.pairwise import BETTER, NO_SPREAD, ONE_ROUND, TIED, _prior_df, compare, letters, round_effects, words


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
    # C's spread is wide enough to hold A's knee: compared pairwise, A and C share a letter, though C is far
    # below B and B below A (a chain of neighbours would call A clear of the rest).
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


def test_one_round_is_shown_without_letters_and_says_why():
    # Windows of one JVM do not stand in for JVM starts: their separations did not repeat.
    c = compare({"a": {1: 10.0}, "b": {1: 20.0}}, higher_is_better=False)
    assert c.method == "none" and c.pairs == [] and c.ratios == []
    assert c.letters == {"a": "", "b": ""} and c.tiers() == []
    assert c.estimate == pytest.approx({"a": 10.0, "b": 20.0})
    assert c.why == ONE_ROUND and c.unlettered == {"a": ONE_ROUND, "b": ONE_ROUND}


def test_a_client_with_one_round_among_others_with_three_is_shown_unlettered():
    c = compare({"a": rounds(10, 10.2, 9.9), "b": rounds(20, 20.1, 19.8), "late": {3: 15.0}}, higher_is_better=False)
    assert c.letters["late"] == "" and c.unlettered == {"late": ONE_ROUND}
    assert c.relation("a", "b") == BETTER
    assert [(x, y) for x, y, _ in c.pairs] == [("a", "b")]
    assert c.high["late"] == math.inf


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


def test_a_figure_declared_exact_without_spread_is_told_apart_wherever_the_values_differ():
    c = compare({"a": rounds(1411, 1411, 1411), "b": rounds(1293, 1293, 1293), "c": rounds(1293, 1293, 1293)},
                higher_is_better=False, is_exact=True)
    assert c.method == "exact"
    assert c.relation("b", "a") == BETTER and c.relation("b", "c") == TIED
    assert c.letters["b"] == c.letters["c"] != c.letters["a"]


def test_a_zero_spread_is_not_taken_for_exactness():
    # Every round's p50 in the same histogram bucket is no evidence that two clients differ by exactly that much.
    values = {"a": rounds(447, 447, 447), "b": rounds(959, 959, 959), "c": rounds(447, 447, 447)}
    c = compare(values, higher_is_better=False)
    assert c.method == "none" and c.separated == 0 and c.why == NO_SPREAD
    assert set(c.letters.values()) == {""}
    assert c.estimate["b"] == pytest.approx(959)


def test_a_declared_exact_figure_that_moved_between_rounds_is_compared_on_its_spread():
    c = compare({"a": rounds(10, 11, 10), "b": rounds(12, 12, 13), "c": rounds(30, 30, 30)}, higher_is_better=False,
                is_exact=True)
    assert c.method == "rounds" and c.sd > 0
    assert c.low["a"] < c.estimate["a"] < c.high["a"]
    assert c.relation("a", "c") == BETTER


def test_a_floor_variance_keeps_neighbouring_buckets_from_being_told_apart_however_often_they_repeat():
    # Latency beyond a 100 ms delay, read from a histogram whose bucket is 64 us wide there: 200, 264 and 328 us
    # are neighbouring buckets' tops, the same in every round. The true values lie anywhere in their buckets.
    width = 64
    values = {"a": 200, "b": 264, "c": 328}
    floor_var = {c: math.log(v / (v - width + 1)) ** 2 / 12 for c, v in values.items()}
    c = compare({cl: rounds(*[v] * 4) for cl, v in values.items()}, False, floor_var=floor_var)
    assert c.method == "rounds"
    assert c.relation("a", "b") == TIED and c.relation("b", "c") == TIED
    assert c.relation("a", "c") == BETTER, "two buckets apart, the order is known"
    assert c.high["a"] / c.low["a"] > 200 / (200 - width + 1), "no narrower than its bucket"


def test_round_effects_are_fitted_so_one_client_cannot_move_them():
    # Five clients feel each round alike; a sixth swings 1.7x in round 2 alone. The median of the deviations is the
    # five's; least squares would have moved every round by a sixth of the swing.
    spell = {1: 0.0, 2: 0.3, 3: -0.1}
    cells = {f"c{i}": {r: i * 0.1 + e for r, e in spell.items()} for i in range(5)}
    cells["swing"] = {r: 1.0 + e + (math.log(1.7) if r == 2 else 0.0) for r, e in spell.items()}
    rho, mu = round_effects(cells)
    centre = sum(spell.values()) / 3
    for r, e in spell.items():
        assert rho[r] == pytest.approx(e - centre, abs=1e-12)
    assert mu["c3"] == pytest.approx(0.3 + centre)


def test_a_swinging_client_widens_its_own_pairs_only():
    rnd = random.Random(17)
    host = [rnd.gauss(0, 0.2) for _ in range(3)]
    values = {f"c{i:02d}": rounds(*(100 * 1.12 ** i * math.exp(h + rnd.gauss(0, 0.02)) for h in host))
              for i in range(10)}
    values["swing"] = rounds(*(100 * math.exp(h) * f for h, f in zip(host, (1.0, 1.7, 1.0))))
    c = compare(values, higher_is_better=False)
    assert c.noisy == ["swing"]
    assert c.sd < 0.04, "the steady clients' spread, not the swing's"
    steady = [x for x in values if x != "swing"]
    # A swing says clients' spreads can differ, so the pool is worth fewer df to each (`prior_df`): neighbours 12%
    # apart may tie, but four steps (57%) lie far outside a steady pair's interval on any df over two.
    assert all(c.relation(x, y) != TIED for i, x in enumerate(steady) for y in steady[i + 4:])
    assert all(c.relation("swing", x) == TIED for x in steady[:5])
    width = {frozenset((r.x, r.y)): r.high / r.low for r in c.ratios}
    assert min(w for p, w in width.items() if "swing" in p) > 10 * max(w for p, w in width.items() if "swing" not in p)


def test_each_pair_has_one_ratio_with_its_interval_at_the_letters_confidence():
    rnd = random.Random(23)
    values = {f"c{i}": rounds(*(50 * 1.25 ** i * math.exp(rnd.gauss(0, 0.05)) for _ in range(3))) for i in range(5)}
    c = compare(values, higher_is_better=False)
    assert [(r.x, r.y) for r in c.ratios] == [(x, y) for x, y, _ in c.pairs]
    for r, (x, y, relation) in zip(c.ratios, c.pairs):
        assert r.ratio == pytest.approx(c.estimate[x] / c.estimate[y])
        assert r.low < r.ratio < r.high
        assert r.relation == relation
        assert (relation == BETTER) == (r.high < 1), "apart exactly where the interval leaves out 1"


def test_a_lower_bound_has_no_low_end_in_its_ratio():
    c = compare({"fast": rounds(30000, 31000, 32000), "open": rounds(4000, 4000, 4010)}, higher_is_better=True,
                lower_bounds={"open"})
    (r,) = c.ratios
    assert (r.x, r.y, r.low) == ("fast", "open", 0.0) and r.relation == TIED and r.high > r.ratio


def test_an_interval_wider_than_a_float_holds_ends_at_infinity():
    # Two rounds of a client whose values differ by 10^200: judged on its own spread (one degree of freedom), its
    # pairs' intervals reach past e^709; they end at inf instead of raising.
    c = compare({"a": rounds(100, 101), "b": rounds(100, 102), "c": rounds(1e-100, 1e100)}, False)
    far = [r for r in c.ratios if "c" in (r.x, r.y)]
    assert far and all(r.high == math.inf and r.relation == TIED for r in far), far


def test_pairs_judged_at_a_stricter_confidence_keep_each_clients_interval():
    # Three clients 8% apart over six rounds: apart at 95%, the pairs' intervals wider at 99.9%, the clients' the same.
    values = {c: rounds(*(k * (1 + 0.01 * ((i * 7 + j) % 3 - 1)) for i in range(6))) for j, (c, k) in
              enumerate((("a", 100), ("b", 108), ("c", 116.6)))}
    loose, strict = compare(values, False), compare(values, False, pair_confidence=0.999)
    assert (loose.low, loose.high) == (strict.low, strict.high)
    for lo, st in zip(loose.ratios, strict.ratios):
        assert st.low < lo.low and st.high > lo.high, (lo, st)
    assert loose.separated >= strict.separated


def test_the_pool_is_worth_the_prior_df_the_clients_spreads_were_drawn_with():
    # Variances drawn from a scaled inverse chi-square on 4 df (Smyth's prior), each seen on 1.83 df as at three rounds
    # of twelve clients: the prior's df comes back near 4 (low rather than high: a missed difference costs false pairs);
    # clients all alike give a prior worth far more than the pool's 22 df.
    rnd = random.Random(1)
    nu, n = 1.83, 4000
    chi2 = lambda df: 2 * rnd.gammavariate(df / 2, 1)  # noqa: E731
    drawn = [4 / chi2(4) * chi2(nu) / nu for _ in range(n)]
    assert 2 <= _prior_df(drawn, [nu] * n) <= 5
    assert _prior_df([chi2(nu) / nu for _ in range(n)], [nu] * n) > 30
    assert _prior_df([1.0] * 12, [nu] * 12) == math.inf

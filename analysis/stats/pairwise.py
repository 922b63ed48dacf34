"""Pairwise comparison of clients on one figure, and the compact letter display that presents it. Pure numbers.

On the log scale, client effect + round effect + residual. A round's effect is the median of the clients' deviations
in it, so no one client moves it. Each pair is judged on its two clients' spreads with its own degrees of freedom
(Games-Howell): a client whose rounds disagree more than the others' credibly do is judged on its own spread, the
others on the pool moderated by their own (empirical Bayes), on the degrees of freedom the pool is worth for one client
where the clients' spreads differ. Exact only where the caller declares a figure exact; a client needs two rounds for
letters.
"""
from __future__ import annotations

import bisect
import functools
import math
import string
from dataclasses import dataclass, field
from statistics import fmean, median

BETTER, WORSE, TIED = "better", "worse", "not separated"
MIN_ROUNDS = 2  # a client's letters rest on at least this many JVM starts: windows of one JVM do not repeat
# A client whose spread exceeds the typical one at this level, over all clients (so a steady client is taken for a
# noisy one in at most 5% of runs), is judged on its own spread and degrees of freedom, and kept out of the pool.
NOISY_LEVEL = 0.05
ONE_ROUND = "measured in one round: the spread between JVM starts is unknown"
NO_SPREAD = "no spread between rounds, and the figure is not exact: nothing bounds its error"


@dataclass(frozen=True)
class Ratio:
    """x's figure over y's, with its interval at the comparison's family-wise confidence: "not separated" reads as
    "within [low, high]"."""
    x: str
    y: str
    ratio: float
    low: float
    high: float
    relation: str


@dataclass
class Comparison:
    """One figure's clients, compared: best first, each with its estimate and interval, its letters, and every
    pair's relation and ratio. `method`: "rounds", "exact" or "none" (no letters: `why` says why)."""
    order: list
    estimate: dict  # client -> the figure (geometric mean over rounds, what the round effects leave)
    low: dict
    high: dict
    letters: dict  # client -> "ab"; "" for a client shown but not lettered (`unlettered` says why)
    pairs: list  # (x, y, relation of x to y) for lettered x before y in `order`
    method: str
    sd: float  # pooled sd of the log figure
    df: float
    rounds: dict = field(default_factory=dict)  # client -> rounds it rests on
    withheld: list = field(default_factory=list)  # (x, y): apart by the numbers, but y's figure is a lower bound
    ratios: list = field(default_factory=list)  # Ratio per pair of `pairs`, in the same order
    unlettered: dict = field(default_factory=dict)  # client -> why it is shown without letters
    noisy: list = field(default_factory=list)  # clients judged on their own spread
    why: str = ""  # why there are no letters at all
    planned: list = field(default_factory=list)  # Ratio per pair named before the run (`compare`'s `planned`)
    prior_df: float = math.inf  # what the pool is worth for one client, in degrees of freedom (`_prior_df`)
    own_sd: dict = field(default_factory=dict)  # client -> the sd of its own residuals (where it has df)

    @property
    def separated(self) -> int:
        return sum(1 for _, _, r in self.pairs if r != TIED)

    def tiers(self) -> list:
        """For each letter, best first: the clients that have it, best first (a client with two letters is in two)."""
        used = sorted({ch for s in self.letters.values() for ch in s})
        return [[c for c in self.order if ch in self.letters[c]] for ch in used]

    def relation(self, x: str, y: str) -> str:
        for a, b, r in self.pairs:
            if (a, b) == (x, y):
                return r
            if (a, b) == (y, x):
                return {BETTER: WORSE, WORSE: BETTER}.get(r, r)
        raise KeyError((x, y))


@dataclass(frozen=True)
class _Spread:
    """What a client's estimate is judged on: the variance of one round's log figure, the source of that estimate
    ("pool" or the client itself) and its degrees of freedom, and a variance of the estimate that no round removes."""
    var: float
    source: str
    df: float
    floor_var: float = 0.0


def compare(values: dict, higher_is_better: bool, confidence: float = 0.95, lower_bounds: set = frozenset(),
            is_exact: bool = False, floor_var: dict | None = None, left_out: dict | None = None,
            planned: tuple = (), pair_confidence: float | None = None) -> Comparison:
    """Compares clients on one figure. `values`: client -> {round: value > 0}. `is_exact`: the figure is declared
    exact (a count, a size): where no client's value differs between rounds, clients are apart wherever the values
    differ. `floor_var`: client -> a variance of its log estimate that no number of rounds removes (a histogram's
    resolution). `left_out`: client -> rounds shown but kept out of the fit and the letters (a fork that never
    settled). `lower_bounds`: clients whose figure is only a lower bound (an open knee search): never found worse
    (higher is better then), and the pair is listed as withheld. `planned`: pairs (x, y) named before the run, each
    given x/y with its interval at `confidence` over these pairs alone (`Comparison.planned`). `pair_confidence`: where
    pairs are judged at another family-wise confidence than each client's interval is drawn at (a run's looks split it)."""
    pair_confidence = pair_confidence or confidence
    logs = {c: {r: math.log(v) for r, v in rs.items() if v > 0} for c, rs in values.items()}
    logs = {c: rs for c, rs in logs.items() if rs}
    if not logs:
        return Comparison([], {}, {}, {}, {}, [], "none", math.nan, 0)
    if is_exact and all(max(rs.values()) == min(rs.values()) for rs in logs.values()):
        return exact({c: values[c][next(iter(rs))] for c, rs in logs.items()}, higher_is_better, planned)
    left_out, floor_var = left_out or {}, floor_var or {}
    kept = {c: {r: y for r, y in rs.items() if r not in left_out.get(c, ())} for c, rs in logs.items()}
    lettered = [c for c in logs if len(kept[c]) >= MIN_ROUNDS]
    unlettered = {c: _unlettered_why(len(logs[c]), len(logs[c]) - len(kept[c])) for c in logs if c not in lettered}
    fit = {c: kept[c] for c in lettered}
    rho, _ = round_effects(fit) if len(lettered) >= 2 else ({}, {})
    shown = {c: kept[c] if c in lettered else logs[c] for c in logs}
    means = {c: fmean([y - rho.get(r, 0.0) for r, y in rs.items()]) for c, rs in shown.items()}
    n = {c: len(rs) for c, rs in shown.items()}
    spread, pooled_var, pooled_df, noisy, prior_df, own = _spreads(shown, rho, means, lettered, floor_var)
    why = _no_letters(logs, lettered, pooled_var, floor_var)
    if why:
        unlettered.update(dict.fromkeys(lettered, why))
        lettered = []
    sign = -1.0 if higher_is_better else 1.0
    order = sorted(logs, key=lambda c: (sign * means[c], c))
    ranked = [c for c in order if c in lettered]
    pairs, withheld, ratios = _pairs(ranked, means, spread, n, pair_confidence, lower_bounds if higher_is_better else set())
    low, high = {}, {}
    for c in order:
        s = spread.get(c)
        half = _t(confidence, s.df) * math.sqrt(s.var / n[c] + s.floor_var) if s and s.var + s.floor_var > 0 else math.inf
        low[c], high[c] = (_exp(means[c] - half), _exp(means[c] + half)) if half < math.inf else (0.0, math.inf)
    marks = letters(ranked, {(x, y) for x, y, r in pairs if r != TIED})
    chosen = _planned([(x, y) for x, y in planned if x in ranked and y in ranked], means, spread, n, pair_confidence,
                      sign)
    return Comparison(order, {c: math.exp(means[c]) for c in order}, low, high,
                      {c: marks.get(c, "") for c in order}, pairs, "rounds" if ranked else "none",
                      math.sqrt(pooled_var) if pooled_var == pooled_var else math.nan, pooled_df, n, withheld, ratios,
                      {c: unlettered[c] for c in order if c in unlettered}, sorted(noisy & set(ranked)), why, chosen,
                      prior_df, {c: math.sqrt(v) for c, v in own.items()})


def _no_letters(logs: dict, lettered: list, pooled_var: float, floor_var: dict) -> str:
    """Why a figure gets no letters at all ("" where it gets them)."""
    if len(lettered) < 2:
        if all(len(rs) <= 1 for rs in logs.values()):
            return ONE_ROUND
        return "one client: nothing to compare it with" if len(logs) == 1 else \
            f"fewer than two clients with {MIN_ROUNDS} steady rounds"
    if pooled_var == 0 and not any(v > 0 for v in floor_var.values()):
        return NO_SPREAD
    return ""


def _pairs(ranked: list, means: dict, spread: dict, n: dict, confidence: float, lower_bounds: set) -> tuple:
    """(pairs, withheld, ratios) of the lettered clients, best first: each pair at the studentized range's quantile
    for all of them, on its own standard error and degrees of freedom."""
    pairs, withheld, ratios = [], [], []
    for i, x in enumerate(ranked):
        for y in ranked[i + 1:]:
            diff = means[x] - means[y]
            se, df = _pair(spread[x], n[x], spread[y], n[y])
            half = _q(confidence, len(ranked), df) / math.sqrt(2) * se if se > 0 else math.inf
            apart = abs(diff) > half
            bound = y in lower_bounds  # y's true figure may be higher: x/y has no low end
            if apart and bound:
                withheld.append((x, y))
                apart = False
            pairs.append((x, y, BETTER if apart else TIED))
            low = _exp(diff - half) if half < math.inf and not bound else 0.0
            ratios.append(Ratio(x, y, math.exp(diff), low, _exp(diff + half), BETTER if apart else TIED))
    return pairs, withheld, ratios


def _planned(pairs: list, means: dict, spread: dict, n: dict, confidence: float, sign: float) -> list:
    """x/y of each pair with its interval at `confidence` over these pairs alone (Bonferroni): a few comparisons chosen
    before the run need no allowance for every other pair. `sign`: -1 where higher is better."""
    out = []
    for x, y in pairs:
        diff = means[x] - means[y]
        se, df = _pair(spread[x], n[x], spread[y], n[y])
        half = _t(1 - (1 - confidence) / len(pairs), df) * se if se > 0 else math.inf
        relation = TIED if abs(diff) <= half else BETTER if sign * diff < 0 else WORSE
        out.append(Ratio(x, y, math.exp(diff), _exp(diff - half) if half < math.inf else 0.0, _exp(diff + half),
                         relation))
    return out


def _exp(x: float) -> float:
    """e^x, inf past what a float holds: a pair's interval on one degree of freedom can reach that far."""
    return math.exp(x) if x < 709 else math.inf


def _unlettered_why(rounds: int, left_out: int) -> str:
    if rounds <= 1:
        return ONE_ROUND
    return f"{left_out} of its {rounds} rounds never settled: fewer than {MIN_ROUNDS} steady rounds"


def exact(values: dict, higher_is_better: bool, planned: tuple = ()) -> Comparison:
    """A figure declared exact (a count, a dependency's size) whose values did not change between rounds: clients
    are apart wherever their values differ, tied where equal; the interval is the value, and so is a planned ratio's."""
    sign = -1.0 if higher_is_better else 1.0
    order = sorted(values, key=lambda c: (sign * values[c], c))
    pairs = [(x, y, TIED if values[x] == values[y] else BETTER) for i, x in enumerate(order) for y in order[i + 1:]]
    ratio = {(x, y): values[x] / values[y] if values[y] else 1.0 if values[x] == values[y] else math.inf
             for x, y, _ in pairs}
    ratios = [Ratio(x, y, ratio[x, y], ratio[x, y], ratio[x, y], r) for x, y, r in pairs]
    chosen = []
    for x, y in ((x, y) for x, y in planned if x in values and y in values):
        q = values[x] / values[y] if values[y] else 1.0 if values[x] == values[y] else math.inf
        chosen.append(Ratio(x, y, q, q, q, TIED if q == 1 else BETTER if (q > 1) == higher_is_better else WORSE))
    return Comparison(order, dict(values), dict(values), dict(values),
                      letters(order, {(x, y) for x, y, r in pairs if r != TIED}), pairs, "exact", 0.0, 0,
                      {c: 1 for c in order}, [], ratios, planned=chosen)



def round_effects(cells: dict) -> tuple:
    """(round effects, client effects) of log figure = client + round + residual on the cells present (client ->
    {round: log value}), fitted robustly: a round's effect is the median over clients of their deviations from their
    own means (median polish, with means for the clients), so one client's swings cannot move it; centred on zero."""
    rounds = sorted({r for rs in cells.values() for r in rs})
    rho = dict.fromkeys(rounds, 0.0)
    for _ in range(100):  # a complete table settles in two sweeps; gaps take a few more
        mu = {c: fmean([y - rho[r] for r, y in rs.items()]) for c, rs in cells.items()}
        new = {r: median([rs[r] - mu[c] for c, rs in cells.items() if r in rs]) for r in rounds}
        centre = fmean(new.values())
        new = {r: v - centre for r, v in new.items()}
        moved = max(abs(new[r] - rho[r]) for r in rounds)
        rho = new
        if moved < 1e-12:
            break
    return rho, {c: fmean([y - rho[r] for r, y in rs.items()]) for c, rs in cells.items()}


def _spreads(shown: dict, rho: dict, means: dict, lettered: list, floor_var: dict) -> tuple:
    """Per client, the _Spread it is judged on; the pooled variance and its df; the noisy clients; the prior df; each
    client's own variance. A
    lettered client's own variance is its residuals' on its share of the residual df; it is noisy where that exceeds
    the typical one (the scaled median) at NOISY_LEVEL, and judged on it. The others pool: each is judged on the pool
    moderated by its own, never below the pool, on the df the pool is worth for one client plus its own."""
    k = max(1, len(lettered))
    own, own_df = {}, {}
    for c, rs in shown.items():
        resid = [y - rho.get(r, 0.0) - means[c] for r, y in rs.items()]
        # the fit spends a client's mean and its 1/k share of each round effect; one not in the fit, its mean only
        dfc = (len(rs) - 1) * ((k - 1) / k if c in lettered else 1.0)
        if dfc > 0:
            own[c], own_df[c] = sum(e * e for e in resid) / dfc, dfc
    in_fit = [c for c in lettered if c in own]
    typical, typical_df = _typical_variance([own[c] for c in in_fit], [own_df[c] for c in in_fit])
    noisy, level = set(), NOISY_LEVEL / max(1, len(in_fit))
    if typical > 0:
        noisy = {c for c in in_fit if own[c] > typical * _quantile("f", 1 - level, own_df[c], typical_df)}
    calm = [c for c in in_fit if c not in noisy]
    pooled_df = sum(own_df[c] for c in calm)
    pooled = sum(own[c] * own_df[c] for c in calm) / pooled_df if pooled_df else math.nan
    # a noisy client shows that spreads differ at least as far as the test's bound; beyond it, it is judged on its own
    seen = {c: min(own[c], typical * _quantile("f", 1 - level, own_df[c], typical_df)) if c in noisy else own[c]
            for c in in_fit if own[c] > 0}
    prior = min(pooled_df, _prior_df(list(seen.values()), [own_df[c] for c in seen]))
    spread = {}
    for c in shown:
        f = floor_var.get(c, 0.0)
        if c in noisy or (c not in lettered and c in own):
            spread[c] = _Spread(own[c], c, own_df[c], f)
        elif c in lettered and pooled == pooled:
            nu, v = own_df.get(c, 0.0), own.get(c, 0.0)
            moderated = pooled if prior == math.inf else (prior * pooled + nu * v) / (prior + nu)
            spread[c] = _Spread(max(pooled, moderated), "pool", min(pooled_df, prior + nu), f)
    return spread, pooled, pooled_df, noisy, prior, own


# The clients' spread of log variances beyond chance is taken this many standard errors wide: a difference missed costs
# false pairs, one overstated only power (analysis/testkit/simulation.py's family-wise table is what settles it).
PRIOR_MARGIN_SE = 1.0


def _prior_df(own: list, df: list) -> float:
    """What the typical variance is worth, in degrees of freedom, as an estimate of one client's: the prior df of
    Smyth's empirical Bayes (limma), where trigamma(d0 / 2) is the variance of the clients' log variances beyond what
    their own df explain; inf where it is none. That excess is read from the log variances above their median only: on
    under two df a variance near 0 is common, and a client below the pool is judged on the pool anyway."""
    from scipy import optimize, special

    if len(own) < 2:
        return math.inf
    logs = [math.log(v) for v in own]
    centre = median(logs)
    upper = 2 * fmean([max(0.0, x - centre) ** 2 for x in logs])
    excess = upper * (1 + PRIOR_MARGIN_SE * math.sqrt(2 / (len(logs) - 1))) - _upper_by_chance(round(fmean(df), 6))
    if excess <= 1e-8:  # trigamma(1e8 / 2) is 2e-8: past that the prior is as good as the pool
        return math.inf
    # trigamma falls from inf to 0 over (0, inf): one root
    return 2 * optimize.brentq(lambda y: float(special.polygamma(1, y)) - excess, 1e-8, 1e8)


@functools.lru_cache(maxsize=64)
def _upper_by_chance(nu: float) -> float:
    """Twice the mean square of log(chi2_nu / nu) above its median, by quad: what `_prior_df`'s `upper` is when every
    client has the same variance."""
    from scipy import integrate, stats

    centre = math.log(stats.chi2.ppf(0.5, nu) / nu)
    value, _ = integrate.quad(lambda x: (x - centre) ** 2 * stats.chi2.pdf(nu * math.exp(x), nu) * nu * math.exp(x),
                              centre, centre + 40)
    return 2 * value


def _typical_variance(own: list, df: list) -> tuple:
    """(the median of the clients' own variances scaled so that its mean is the variance, its degrees of freedom): a
    spread that one noisy client cannot inflate. A median of k variances on nu degrees of freedom each is worth fewer
    than k nu of them (its large-sample variance, 1 / (4 k f(m)^2), at the chi-square's density f at its median m)."""
    if not own:
        return math.nan, 0.0
    nu = max(fmean(df), 0.5)
    m = _quantile("chi2", 0.5, nu) / nu  # the median of a variance on nu degrees of freedom, its mean 1
    density = _density("chi2", nu * m, nu) * nu
    return median(own) / m, 8 * len(own) * (density * m) ** 2


def _pair(sx: _Spread, nx: int, sy: _Spread, ny: int) -> tuple:
    """(standard error of the difference of two clients' log estimates, its degrees of freedom): Welch-Satterthwaite
    over the estimates it rests on, the pool counted once; a floor variance is known, not estimated."""
    terms = {}
    for s, n in ((sx, nx), (sy, ny)):
        terms[s.source] = terms.get(s.source, 0.0) + s.var / n
    df_of = {sx.source: sx.df, sy.source: sy.df}
    var = sum(terms.values()) + sx.floor_var + sy.floor_var
    denominator = sum(v * v / df_of[src] for src, v in terms.items() if v > 0)
    return math.sqrt(var), (var * var / denominator if denominator > 0 else math.inf)


# Degrees of freedom are rounded down to this grid before a quantile is looked up: conservative, and few to compute.
_DF_GRID = (*(x / 4 for x in range(2, 16)), *(x / 2 for x in range(8, 20)), *range(10, 20), *range(20, 30, 2),
            30, 35, 40, 50, 60, 80, 120, 240, math.inf)


def _grid(df: float) -> float | None:
    i = bisect.bisect_right(_DF_GRID, df)
    return _DF_GRID[i - 1] if i else None


@functools.lru_cache(maxsize=4096)
def _quantile(distribution: str, p: float, *shape) -> float:
    """scipy.stats' quantile, remembered here and on disk: the same few are asked for again and again."""
    import analysis.stats.quantiles

    return analysis.stats.quantiles.quantile(distribution, p, *shape)


@functools.lru_cache(maxsize=256)
def _density(distribution: str, x: float, *shape) -> float:
    from scipy import stats

    return float(getattr(stats, distribution).pdf(x, *shape))


def _q(confidence: float, k: int, df: float) -> float:
    """The studentized range's quantile for k clients (Games-Howell's, simultaneous over every pair)."""
    g = _grid(df)
    return _quantile("studentized_range", confidence, max(2, k), g) if g is not None else math.inf


def _t(confidence: float, df: float) -> float:
    g = _grid(df)
    return _quantile("t", 0.5 + confidence / 2, g) if g is not None else math.inf


def letters(order: list, separated: set) -> dict:
    """The compact letter display (Piepho's insert-absorb): clients sharing a letter are not separated; every
    separated pair shares none. `order`: best first; `separated`: pairs (x, y), either way round. Letters run
    from 'a' for the group holding the best client."""
    apart = {frozenset(p) for p in separated}
    columns = [set(order)]
    for i, x in enumerate(order):
        for y in order[i + 1:]:
            if frozenset((x, y)) not in apart:
                continue
            new = []
            for col in columns:
                if x in col and y in col:
                    new += [col - {x}, col - {y}]
                else:
                    new.append(col)
            columns = [c for c in new if c and not any(c < o for o in new)]
            columns = [c for i2, c in enumerate(columns) if c not in columns[:i2]]
    rank = {c: i for i, c in enumerate(order)}
    columns.sort(key=lambda col: sorted(rank[c] for c in col))
    names = string.ascii_lowercase + string.ascii_uppercase
    out = {c: "" for c in order}
    for i, col in enumerate(columns):
        for c in order:
            if c in col:
                out[c] += names[i] if i < len(names) else f"[{i}]"
    return out


def words(cmp: Comparison, label, higher_is_better: bool) -> str:
    """'ahc (a) < vertx, apache (b) < reactor (bc)': lettered clients best first, those with the same letters
    together, each group's letters after it; '<' where lower is better, '>' where higher is. `label(client)` names
    a client."""
    groups = []
    for c in (c for c in cmp.order if cmp.letters[c]):
        if groups and groups[-1][0] == cmp.letters[c]:
            groups[-1][1].append(c)
        else:
            groups.append((cmp.letters[c], [c]))
    sep = " > " if higher_is_better else " < "
    return sep.join(f"{', '.join(label(c) for c in cs)} ({ls})" for ls, cs in groups)

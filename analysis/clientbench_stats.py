"""Pairwise comparison of clients on one figure, and the compact letter display that presents it. Pure numbers.

On the log scale, client effect + round effect + residual takes out what a round did to all; Tukey's HSD tells pairs
apart (Tukey-Kramer with gaps), a client noisier than typical judged on its own spread. One round: windows stand in.
"""
from __future__ import annotations

import math
import string
from dataclasses import dataclass, field

import numpy as np

BETTER, WORSE, TIED = "better", "worse", "not separated"


@dataclass
class Comparison:
    """One figure's clients, compared: best first, each with its estimate and interval, its letters, and every
    pair's relation. `method` says what the spread rests on ("rounds", "windows", or "none")."""
    order: list
    estimate: dict  # client -> the figure (geometric mean over rounds, what the round effects leave)
    low: dict
    high: dict
    letters: dict  # client -> "ab"
    pairs: list  # (x, y, relation of x to y) for x before y in `order`
    method: str
    sd: float  # pooled sd of log figure
    df: int
    rounds: dict = field(default_factory=dict)  # client -> observations it rests on
    withheld: list = field(default_factory=list)  # (x, y): apart by the numbers, but y's figure is a lower bound

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


def compare(values: dict, higher_is_better: bool, confidence: float = 0.95, lower_bounds: set = frozenset(),
            windows: dict | None = None) -> Comparison:
    """Compares clients on one figure. `values`: client -> {round: value > 0}; `windows`: client -> [window values],
    used when every client has one round only. `lower_bounds`: clients whose figure is only a lower bound (an open knee
    search): never found worse (higher is better then), and the pair is listed as withheld."""
    logs = {c: {r: math.log(v) for r, v in rs.items() if v > 0} for c, rs in values.items()}
    logs = {c: rs for c, rs in logs.items() if rs}
    clients = list(logs)
    if len(clients) == 0:
        return Comparison([], {}, {}, {}, {}, [], "none", math.nan, 0)
    one_round = all(len(rs) <= 1 for rs in logs.values())
    if one_round and windows:
        groups = {c: [math.log(v) for v in windows.get(c, []) if v > 0] for c in clients}
        means, own, n, sd, df = _one_way(groups)
        method = "windows"
    else:
        means, own, n, sd, df = _two_way(logs)
        method = "rounds"
    if df and sd < 1e-9:  # no spread at all (a count): exact, not statistics
        return exact({c: math.exp(means[c]) for c in clients}, higher_is_better)
    if not df or not sd > 0:
        method = "none"
    sign = -1.0 if higher_is_better else 1.0
    order = sorted(clients, key=lambda c: (sign * means[c], c))
    from scipy import stats

    typical = _typical_variance(own, df, len(clients)) if method == "rounds" else sd ** 2
    var = {c: max(typical, own.get(c, 0.0)) if sd == sd else math.nan for c in clients}

    q = stats.studentized_range.ppf(confidence, max(2, len(clients)), df) if method != "none" and len(clients) > 1 else math.inf
    t = stats.t.ppf(0.5 + confidence / 2, df) if method != "none" else math.inf
    pairs, withheld = [], []
    for i, x in enumerate(order):
        for y in order[i + 1:]:
            diff = abs(means[x] - means[y])
            se = math.sqrt(var[x] / n[x] + var[y] / n[y]) if method != "none" else math.inf
            apart = diff > q / math.sqrt(2) * se
            if apart and y in lower_bounds and higher_is_better:
                withheld.append((x, y))
                apart = False
            pairs.append((x, y, BETTER if apart else TIED))
    est = {c: math.exp(means[c]) for c in clients}
    half = {c: t * math.sqrt(var[c] / n[c]) if method != "none" else math.inf for c in clients}
    low = {c: math.exp(means[c] - half[c]) if half[c] < math.inf else 0.0 for c in clients}
    high = {c: math.exp(means[c] + half[c]) if half[c] < math.inf else math.inf for c in clients}
    separated = {(x, y) for x, y, r in pairs if r != TIED}
    return Comparison(order, est, low, high, letters(order, separated), pairs, method, sd, df,
                      {c: n[c] for c in clients}, withheld)


def exact(values: dict, higher_is_better: bool) -> Comparison:
    """A figure without spread (a count the same every round, a dependency's size): clients are apart wherever
    their values differ, tied where equal; the interval is the value."""
    sign = -1.0 if higher_is_better else 1.0
    order = sorted(values, key=lambda c: (sign * values[c], c))
    pairs = [(x, y, TIED if values[x] == values[y] else BETTER) for i, x in enumerate(order) for y in order[i + 1:]]
    return Comparison(order, dict(values), dict(values), dict(values),
                      letters(order, {(x, y) for x, y, r in pairs if r != TIED}), pairs, "exact", 0.0, 0,
                      {c: 1 for c in order})


def _typical_variance(own: dict, df: int, clients: int) -> float:
    """The median of the clients' own variances, scaled so that its mean is the variance (each has about df /
    clients degrees of freedom: the median of a chi-square falls below its mean): a pooled spread that one noisy
    client cannot inflate."""
    from scipy import stats

    values = sorted(own.values())
    if not values or not df:
        return math.nan
    nu = max(df / clients, 0.5)
    median = values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
    return median * nu / stats.chi2.median(nu)


def _one_way(groups: dict) -> tuple:
    """(means, own variances, counts, pooled sd, df) of log values grouped by client (windows of one fork)."""
    means, own, n = {}, {}, {}
    ss, df = 0.0, 0
    for c, xs in groups.items():
        n[c] = max(1, len(xs))
        means[c] = sum(xs) / len(xs) if xs else math.nan
        if len(xs) >= 2:
            r = sum((x - means[c]) ** 2 for x in xs)
            own[c] = r / (len(xs) - 1)
            ss += r
            df += len(xs) - 1
    return means, own, n, (math.sqrt(ss / df) if df else math.nan), df


def _two_way(logs: dict) -> tuple:
    """(client effects, own variances, rounds per client, pooled sd, df) of the additive model fitted by least
    squares on the cells present; round effects sum to zero, so a client's effect is its mean where it ran
    every round."""
    clients = list(logs)
    rounds = sorted({r for rs in logs.values() for r in rs})
    cells = [(ci, rounds.index(r), v) for ci, c in enumerate(clients) for r, v in logs[c].items()]
    k, m = len(clients), len(rounds)
    x = np.zeros((len(cells), k + m - 1))
    y = np.array([v for _, _, v in cells])
    for row, (ci, ri, _) in enumerate(cells):
        x[row, ci] = 1.0
        if m > 1:  # effects coding: the last round is minus the sum of the others
            if ri < m - 1:
                x[row, k + ri] = 1.0
            else:
                x[row, k:] = -1.0
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ beta
    df = len(cells) - k - (m - 1)
    sd = math.sqrt(float(resid @ resid) / df) if df > 0 else math.nan
    n = {c: len(logs[c]) for c in clients}
    own = {}
    for ci, c in enumerate(clients):
        rs = [resid[row] for row, (cj, _, _) in enumerate(cells) if cj == ci]
        dfc = len(rs) * df / len(cells) if df > 0 else 0  # the client's share of the residual df
        if dfc > 0 and len(rs) >= 2:
            own[c] = sum(e * e for e in rs) / dfc
    return {c: float(beta[ci]) for ci, c in enumerate(clients)}, own, n, sd, max(df, 0)


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
    """'ahc (a) < vertx, apache (b) < reactor (bc)': clients best first, those with the same letters together,
    each group's letters after it; '<' where lower is better, '>' where higher is. `label(client)` names a client."""
    groups = []
    for c in cmp.order:
        if groups and groups[-1][0] == cmp.letters[c]:
            groups[-1][1].append(c)
        else:
            groups.append((cmp.letters[c], [c]))
    sep = " > " if higher_is_better else " < "
    return sep.join(f"{', '.join(label(c) for c in cs)} ({ls})" for ls, cs in groups)

"""How each client behaves when the server misbehaves, from a run folder's behaviour.json: a cell and a mark per aspect.

Java writes the facts (counts and times per client and case, and each client's settings as it ran them); this module
words each aspect's cell and marks it as a team would want it, or not, against thresholds.json. Decided once, here;
analysis.decide.verdict puts the result in summary.json's verdict, and the terminal and report print it.

    python analysis/decide/behaviour.py RUN        the behaviour table
"""
from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

if __package__ in (None, ""):  # run as a file: the package from the checkout, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])

from analysis.load import CONFIDENCE, THRESHOLDS, AnalysisError, _read_json

FILE = "behaviour.json"
BOUNDS = THRESHOLDS["behaviour"]
WANTED, NOT_WANTED, NOT_APPLICABLE, NOT_RUN, NOT_REACHED = "ok", "NO", "n/a", "failed", "unreached"
EARLIER = "earlier"  # an earlier revision of the case (its figures mean something else today), or none of it yet
REVISIONS = THRESHOLDS["behaviourRevisions"]


@dataclass(frozen=True)
class Aspect:
    """One column of the behaviour table: its key (API: summary.json, results.csv's behaviour.<key>), heading, the
    cases it reads, and how a client's figures of those cases become (cell text, wanted), or (text, wanted, events)
    where the mark rests on a count: `Events`, the requests that went wrong of those that met the condition."""
    key: str
    heading: str
    label: str
    cases: tuple
    judge: Callable[[dict], tuple]


@dataclass(frozen=True)
class Events:
    """What a cell's mark rests on where it is a count: `bad` of `of` requests went wrong (lost, sent twice, a
    connection opened). Two versions' counts say whether a mark that turned is beyond chance (`changes`)."""
    bad: int
    of: int


def _sum(counts: dict, *skip) -> int:
    return sum(n for k, n in (counts or {}).items() if k not in skip)


def _ms(x) -> str:
    return "-" if x is None else f"{x / 1000:.1f}s" if abs(x) >= 1000 else f"{x:.0f}ms"


@dataclass(frozen=True)
class Sent:
    """One kind of request of one case, as the rule reads it: its method, how many were sent and failed (the callers'
    count), sent twice, sent on a connection after the server's FIN had gone out (the stub's counts), and whether the
    case's condition was met for it (by the stub's count, or what the caller saw)."""
    method: str
    sent: int
    failed: int
    twice: int = 0
    on_closed: int = 0
    reached: bool = True
    unconnected: int = 0  # failed to open a connection (a busy machine's connect timeout): not lost to a close

    @property
    def safe(self) -> bool:
        return self.method in SAFE_METHODS


SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")  # RFC 9110 9.2.1; PUT and DELETE are idempotent, not sent here


def by_rule(requests: list, seen: bool) -> tuple:
    """The rule every column that loses or resends requests is judged by, written once (docs/reference/behaviour.md,
    "The rule"): the cell's words, whether it is wanted (None when no kind of request met the case's condition) and
    its `Events`, the requests that broke the rule of those that met the condition.
    `seen`: the server's close went out before each send (the client could have seen it), else it was in flight.
    The words name what broke the rule; where nothing did, what it allows (a POST failed in flight) and the kinds of
    request not reached; a safe request sent again is what the rule asks, and goes unsaid."""
    met = [r for r in requests if r.reached]
    if not met:
        return "-", None
    broken, allowed, bad = [], [], 0
    for r in met:
        if r.failed and (r.safe or seen):  # a safe request lost, not resent; or sent on a close that had arrived
            broken.append(f"{r.method} {r.failed}/{r.sent} {'lost' if r.safe else 'fail'}")
            bad += r.failed
        elif r.failed:  # not idempotent, failed as its connection closed in flight: the right answer
            allowed.append(f"{r.method} {r.failed}/{r.sent} fail")
        if r.twice and not r.safe:  # resent without the application's consent; of how many, so a rare one reads as such
            broken.append(f"{r.method} {r.twice}/{r.sent} x2")
            bad += r.twice
        if r.unconnected:
            allowed.append(f"{r.method} {r.unconnected} unconnected")
    on_closed = sum(r.on_closed for r in met)
    if seen and on_closed:  # sent on a connection whose close had arrived, whatever became of it
        broken.append(f"{on_closed} on closed")
        bad = max(bad, on_closed)  # most of them are the requests counted failed or twice
    sent = sum(r.sent for r in met)
    events = Events(min(bad, sent), sent)
    if broken:
        return ",".join(broken), False, events
    return ",".join(allowed + [f"{r.method} unreached" for r in requests if not r.reached]) or "0 failed", True, events


def _posts_and_gets(c: dict, seen: bool) -> list:
    """A stale-connection case's POSTs and GETs for the rule. Seen: each reached where the stub proved its close went
    out before some send; in flight: each kind reached where one met the close (came after the FIN, or had its
    connection closed under it), failed or was sent twice. A request that could not connect was not lost to a close."""
    out = []
    for kind in ("post", "get"):
        outcomes = c[kind + "s"]
        failed, twice, on_closed = _sum(outcomes, "ok", "connect"), c[kind + "SentTwice"], c[kind + "SentOnClosed"]
        reached = (c["closeSeenBeforeSend"] > 0 if seen
                   else bool(on_closed or c[kind + "RaceClosed"] or failed or twice))
        out.append(Sent(kind.upper(), sum(outcomes.values()), failed, twice, on_closed, reached,
                        outcomes.get("connect", 0)))
    return out


def _stale(f: dict) -> tuple:
    """FIN and RST once idle, each probe sent well after the close went out: seen."""
    return by_rule([sum_sent(x) for x in zip(*(_posts_and_gets(c, seen=True) for c in f.values()))], seen=True)


def sum_sent(parts) -> Sent:
    """One kind of request over several cases."""
    return Sent(parts[0].method, sum(p.sent for p in parts), sum(p.failed for p in parts),
                sum(p.twice for p in parts), sum(p.on_closed for p in parts), any(p.reached for p in parts),
                sum(p.unconnected for p in parts))


def _race(f: dict) -> tuple:
    return by_rule(_posts_and_gets(f["stale-race"], seen=False), seen=False)


def _closed_seen(f: dict) -> tuple:
    return by_rule(_posts_and_gets(f["closed-at-once-seen"], seen=True), seen=True)


def _closed_in_flight(f: dict) -> tuple:
    return by_rule(_posts_and_gets(f["closed-at-once"], seen=False), seen=False)


def _deadline(f: dict) -> tuple:
    """Whose timeout it was, first: the library's own by its kind (total, headers, per-read), or the suite's timer
    (suite); then how late the latest fired, or the cases where some had not by the bound ('>2s': the wait ends there,
    so a timeout the library fires later, as Reactor Netty's 10 s handshake timeout, is not told from none)."""
    late = BOUNDS["deadlineLateMillis"]
    never = [c.removeprefix("deadline-") for c in f if f[c]["fired"] < f[c]["requests"]
             or (f[c]["lateMsMax"] or 0) > late]
    worst = max((f[c]["lateMsMax"] for c in f if f[c]["lateMsMax"] is not None), default=None)
    kind = "/".join(sorted({f[c].get("timeoutKind", "?") for c in f}))
    if not never:
        return f"{kind} +{_ms(worst)}", True
    return f"{kind}: {','.join(never) + ' ' if len(f) > 1 else ''}>{late / 1000:g}s", False


def _leaks(f: dict) -> tuple:
    c = f["timeout-leaks"]
    failed = _sum(c["afterOutcomes"], "ok")
    dead = c["deadConnectionsLeft"]
    late = c["lateMsMax"] > BOUNDS["deadlineLateMillis"]  # a queued call's timeout that fired seconds past its deadline
    text = f"{dead} left" + (f",{failed} fail" if failed else "") + (f",+{c['lateMsMax'] / 1000:.1f}s" if late else "")
    return text, dead <= BOUNDS["deadConnectionsLeft"] and failed <= BOUNDS["failedAfterTimeouts"] and not late


def _reuse(f: dict) -> tuple:
    """Connections opened per 1,000 requests; any request lost on the way (all GETs, each close announced) by the rule."""
    c = f["reuse"]
    lost, kept, events = by_rule([Sent("GET", c["sent"], _sum(c["failures"]))], seen=True)
    text = f"{c['connectionsPer1000']}/1k" + ("" if kept else f",{lost}")
    opened = round(c["connectionsPer1000"] * c["sent"] / 1000)
    return (text, c["connectionsPer1000"] <= BOUNDS["connectionsPer1000"] and kept,
            Events(min(opened + events.bad, c["sent"]), c["sent"]))


def _pool(f: dict) -> tuple:
    c = f["default-pool"]
    refused = _sum(c["reportedEarly"])  # failed at once by the pool (Reactor Netty's pending-acquire limit), not held
    text = f"{c['heldAtOnce']}/{c['callers']}" + (f",{refused} refused" if refused else "")
    return text, c["heldAtOnce"] >= c["callers"]


def _slow_host(f: dict) -> tuple:
    c = f["slow-host"]
    waited = c["fastAfterASlowAnswer"]
    text = f"{waited} wait" if waited else _ms(c["fastP99Ms"])
    return text, waited <= BOUNDS["fastWaitedForSlow"]


def _h2(c: dict, reached: bool) -> tuple:
    """Every request a GET, judged by the rule: a stream refused or lost and not resent is NO; one resent is not."""
    return by_rule([Sent("GET", c["sent"], _sum(c["failures"]), c["requestSentTwice"], reached=reached)], seen=False)


def _h2_streams(f: dict) -> tuple:
    c = f["h2-streams"]
    return _h2(c, c["peakStreams"] >= c["streamLimit"])


def _go_away(f: dict) -> tuple:
    c = f["h2-goaway"]
    return _h2(c, c["goAways"] > 0)


def _flow(f: dict) -> tuple:
    """Down/up: per part reached (down: the client sent WINDOW_UPDATEs; up: the stub held its window shut) what went
    wrong, requests hung (unreported past the wait), failed, uploads not read in full, windows the client overran; '-'
    for a part not reached. ok when every request of each reached part ended ok with its full body; unreached when
    neither part was."""
    c = f["h2-flow"]
    reached = {"down": c["down"]["windowUpdatesIn"] > 0, "up": c["up"]["readPauses"] > 0}
    if not any(reached.values()):
        return "-", None
    texts = []
    for name in ("down", "up"):
        p = c[name]
        hung = p["outcomes"].get("unreported", 0)  # its caller sent no more: the requests not sent are not counted
        failed = _sum(p["outcomes"], "ok", "unreported")
        unread = p["requests"] - p["pausedBodies"] if name == "up" else 0
        bad = [f"{n} {what}" for n, what in ((hung, "hang"), (failed, "fail"), (unread, "unread"),
                                             (p["flowControlErrors"], "overran")) if n]
        texts.append(",".join(bad) or "ok" if reached[name] else "-")
    return "/".join(texts), all(t in ("ok", "-") for t in texts)


def _kib(n: int) -> str:
    return f"{n / 1024:g}K"


def _headers(f: dict) -> tuple:
    """The largest head read with every smaller one ('40K'), or the smallest some request failed ('<12K'); ',hang' when
    one timed out or was never reported. Unreached when the stub did not send every head it was asked for."""
    sizes = f["large-headers"]["bySize"]
    if any(s["stubSent"] < s["requests"] for s in sizes):
        return "-", None
    failed = [s["headerBytes"] for s in sizes if _sum(s["outcomes"], "ok")]
    hung = any(s["outcomes"].get(k) for s in sizes for k in ("timeout", "unreported"))
    text = (f"<{_kib(failed[0])}" if failed else _kib(sizes[-1]["headerBytes"])) + (",hang" if hung else "")
    return text, not hung and not any(n <= BOUNDS["headerBytesRead"] for n in failed)


def _slots(c: dict) -> tuple:
    """One pool-timeouts case: its words (slots served after of those before, ordinary requests failed after) and
    whether it lost a slot or failed one."""
    lost, failed = c["slotsBefore"] - c["slotsAfter"], _sum(c["afterOutcomes"], "ok")
    return (f"{c['slotsAfter']}/{c['slotsBefore']}" + (f",{failed} fail" if failed else ""),
            lost > BOUNDS["poolSlotsLost"] or failed > BOUNDS["failedAfterTimeouts"])


def _pool_timeouts(f: dict) -> tuple:
    """Marked by the library's own timeout alone: the slots its pool served after of those before, and how many callers
    waited for one; unreached when none waited and none was lost (the pool never filled). The suite's timer, the
    adapter's cancel over the whole exchange, is named after ';' where it lost a slot: the adapter's finding, unmarked."""
    own, suite = f["pool-timeouts"], f["pool-timeouts-suite"]
    text, bad = _slots(own)
    waited = own["callers"] - own["slotsBefore"]
    if waited > 0 and not bad:
        text += f",{waited} wait"
    suite_text, suite_bad = _slots(suite)
    if suite_bad:
        text += f";adapter timer {suite_text}"
    return text, (not bad) if bad or waited > 0 else None


def _tls_stall(f: dict) -> tuple:
    """Whose timeout it was, then how late the latest request ended past it, or the ways some never did within the
    bound. Unreached when the front read no ClientHello, or a request got through to the stub: no handshake was held."""
    c = f["tls-stall"]
    ways = ("stall", "trickle")
    if any(c[w]["helloes"] == 0 or c[w]["stubReads"] for w in ways):
        return "-", None
    return _deadline({w: {"fired": c[w]["ended"], "requests": c["requests"], "lateMsMax": c[w]["lateMsMax"],
                          "timeoutKind": c["timeoutKind"]} for w in ways})  # each way judged as a deadline case


def _unclosed(f: dict) -> tuple:
    """What the leak holds: the connections the stub held once the answers were in, and once the responses were
    dropped, collected and the library had a request elsewhere ('held 70,0 after GC'), whether it warned, then the
    ordinary requests that waited unanswered or failed. ok when none was still held after the collection and none of
    the ordinary requests waited or failed: a pool that made callers wait while the bodies were held is no leak.
    Unreached when the stub read none of the requests whose bodies were to be left open."""
    c = f["unclosed-body"]
    if c["leftOpenStubReads"] == 0:
        return "-", None
    waited = c["afterOutcomes"].get("unreported", 0)
    failed = _sum(c["afterOutcomes"], "ok", "unreported")
    text = (f"held {c['heldOpen']},{c['heldAfterCollection']} after GC" + (",warned" if c["leakWarnings"] else "")
            + (f",{waited} wait" if waited else "") + (f",{failed} fail" if failed else ""))
    return text, (c["heldAfterCollection"] <= BOUNDS["connectionsHeldAfterCollection"]
                  and waited + failed <= BOUNDS["failedAfterBodiesLeftOpen"])


ASPECTS = [
    Aspect("stale", "stale conn", "a kept-alive connection closed by the server once idle (FIN, RST), each request sent"
           " well after the close went out: any request failed, lost or sent on the closed connection",
           ("stale-fin", "stale-rst"), _stale),
    Aspect("race", "idle race", "the server's idle close racing the client's reuse, closing under a request: a GET lost"
           " or a POST sent twice (a POST failed is the right answer); each reached when the stub closed under one",
           ("stale-race",), _race),
    Aspect("closedSeen", "closed seen", "each answer followed at once by a FIN, without Connection: close, and the"
           " next request sent once the stub's count shows the FIN went out: any request failed, lost or sent on the"
           " closed connection", ("closed-at-once-seen",), _closed_seen),
    Aspect("closedAtOnce", "closed in flight", "each answer followed at once by a FIN, without Connection: close, and the"
           " next request sent as it arrives, the FIN in flight: a GET lost or a POST sent twice (a POST failed is the"
           " right answer); reached when a request met the close", ("closed-at-once",), _closed_in_flight),
    Aspect("deadline", "own deadline", "the library's own 1 s timeout (total, headers or per-read; suite where it has"
           " none) against no answer, a stalled body, a body trickled a byte every 400 ms",
           ("deadline-never", "deadline-stall", "deadline-trickle"), _deadline),
    Aspect("suiteDeadline", "suite deadline", "the trickled body against the suite's 1 s timeout as the benchmarks set"
           " it: the library's own where it is total (or all the adapter has), else the suite's timer (suite)",
           ("deadline-suite",), _deadline),
    Aspect("leaks", "1k timeouts", "1,000 timeouts: how late the latest fired; then connections left with a dead exchange,"
           " and 64 requests",
           ("timeout-leaks",), _leaks),
    Aspect("poolTimeouts", "pool timeouts", "20 callers timing out at the library's own pool limits on its own timeout:"
           " the slots the pool served after of those before, and the callers that waited for one; reached when some"
           " waited. After ';', a loss on the suite's timer (the adapter's cancel), shown, not marked",
           ("pool-timeouts", "pool-timeouts-suite"), _pool_timeouts),
    Aspect("reuse", "reuse", "connections opened per 1,000 requests: error bodies left unread, Connection: close",
           ("reuse",), _reuse),
    Aspect("unclosed", "unclosed body", "70 error responses forgotten, bodies neither read nor closed, at the library's"
           " own pool limits: the connections still held, then after a collection; then 5 requests. ok when the"
           " library held none after the collection and the 5 passed", ("unclosed-body",), _unclosed),
    Aspect("pool", "default pool", "64 callers at once at the library's own pool limits: held at once",
           ("default-pool",), _pool),
    Aspect("slowHost", "slow host", "a fast host beside 16 slow ones at the library's own limits",
           ("slow-host",), _slow_host),
    Aspect("headers", "big headers", "response heads of growing size: the largest read with every smaller one; ok when"
           f" every head up to {BOUNDS['headerBytesRead'] // 1024} KiB is read and none hangs",
           ("large-headers",), _headers),
    Aspect("tlsStall", "tls stall", "HTTPS on the library's own 1 s timeout, the server never answering the ClientHello"
           " or answering a byte every 400 ms: how late the latest request ended; reached when the ClientHellos were"
           " held", ("tls-stall",), _tls_stall),
    Aspect("h2Streams", "h2 streams", "HTTP/2 with a 10-stream limit, 30 callers; reached when the stub saw 10 streams"
           " at once on a connection", ("h2-streams",), _h2_streams),
    Aspect("goAway", "h2 goaway", "HTTP/2 with a GOAWAY every 20 streams of a connection; reached when the stub sent one",
           ("h2-goaway",), _go_away),
    Aspect("h2Flow", "h2 flow", "HTTP/2 flow control, down/up: 12 MiB answers past the client's windows, 4 at once;"
           " 512 KiB uploads to a server reopening its 64 KiB windows late; each part reached when the client sent"
           " WINDOW_UPDATEs, or the stub held its window shut", ("h2-flow",), _flow),
]
BY_KEY = {a.key: a for a in ASPECTS}


def read(run_dir):
    """behaviour.json as Java wrote it; None for a run without one."""
    path = Path(run_dir) / FILE
    return _read_json(path) if path.is_file() else None


def revisions(data: dict, client: str | None = None) -> dict:
    """case -> the revision a run measured (behaviour.json's definitions; 1 where not recorded); with `client`, the one
    its JVM ran where its results say (an upgrade's versions each run the cases of their own jar)."""
    measured = {c["key"]: c.get("revision", 1) for c in data.get("definitions", {}).get("cases", [])}
    if client is not None:
        cases = (data["clients"].get(client) or {}).get("cases") or {}
        measured.update({k: c["revision"] for k, c in cases.items() if c and c.get("revision")})
    return measured


def _cell(aspect: Aspect, result: dict | None, measured: dict) -> dict:
    """One client's cell of one aspect: text, mark and why, from the client's case results; `measured`: case -> the
    revision the run measured."""
    old = [c for c in aspect.cases if c in measured and measured[c] != REVISIONS.get(c, 1)]
    new = [c for c in aspect.cases if measured and c not in measured]
    if new:
        return {"text": "-", "mark": EARLIER, "why": f"the run predates {new[0]}: not judged"}
    if old:
        return {"text": "-", "mark": EARLIER, "why": f"measured by revision {measured[old[0]]} of {old[0]}, now "
                                                      f"{REVISIONS.get(old[0], 1)}: not judged by today's bounds"}
    if result is None or not result.get("ok"):
        return {"text": "-", "mark": NOT_RUN, "why": (result or {}).get("failure") or "not run"}
    cases = [result["cases"].get(c) for c in aspect.cases]
    if any(c is None for c in cases):
        return {"text": "-", "mark": NOT_RUN, "why": "the case did not run"}
    if any(c.get("notApplicable") for c in cases):
        return {"text": "n/a", "mark": NOT_APPLICABLE, "why": next(c["notApplicable"] for c in cases if c.get("notApplicable"))}
    failed = [c["failure"] for c in cases if c.get("failure")]
    if failed:
        return {"text": "-", "mark": NOT_RUN, "why": failed[0]}
    text, wanted, *events = aspect.judge({k: c["figures"] for k, c in zip(aspect.cases, cases)})
    if wanted is None:
        return {"text": "-", "mark": NOT_REACHED, "why": "not reached: " + aspect.label}
    cell = {"text": text, "mark": WANTED if wanted else NOT_WANTED, "why": aspect.label}
    return {**cell, "events": {"bad": events[0].bad, "of": events[0].of}} if events else cell


def decide(run_dir, clients: list | None = None) -> dict | None:
    """Every client's cell and mark per aspect, as summary.json's verdict holds it; None without behaviour.json."""
    data = read(run_dir)
    if data is None:
        return None
    clients = [c for c in (clients or data["clients"]) if c in data["clients"]]
    cells = {c: {a.key: _cell(a, data["clients"][c], revisions(data, c)) for a in ASPECTS} for c in clients}
    return {"aspects": [{"key": a.key, "heading": a.heading, "label": a.label, "cases": list(a.cases)} for a in ASPECTS],
            "bounds": BOUNDS, "wallSeconds": data.get("wallSeconds"), "clients": cells,
            "wanted": {c: sum(x["mark"] == WANTED for x in cells[c].values()) for c in clients}}


FIXED, BROKEN, CHANGED, NOT_COMPARED = "fixed", "broken", "changed", "not compared"


def changes(b: dict, old: str, new: str) -> dict:
    """The cells whose mark differs between two clients of one decided table (an upgrade's old and new versions), in
    the table's order: `fixed` (NO -> ok), `broken` (ok -> NO), `not compared` where either was measured by an earlier
    revision of its case (its figures mean something else; counted, not listed, where both were), `changed` for any other pair (a case that failed, was not
    reached or does not apply in one); each with both cells, and how many cells are of each kind."""
    rows, counts = [], {k: 0 for k in (FIXED, BROKEN, CHANGED, NOT_COMPARED, "unchanged")}
    for a in ASPECTS:
        was, now = b["clients"][old][a.key], b["clients"][new][a.key]
        if was["mark"] == now["mark"] == EARLIER:  # neither version measured today's revision: nothing compared
            counts[NOT_COMPARED] += 1
            continue
        if was["mark"] == now["mark"]:
            counts["unchanged"] += 1
            continue
        kind = (NOT_COMPARED if EARLIER in (was["mark"], now["mark"])
                else FIXED if (was["mark"], now["mark"]) == (NOT_WANTED, WANTED)
                else BROKEN if (was["mark"], now["mark"]) == (WANTED, NOT_WANTED) else CHANGED)
        counts[kind] += 1
        rows.append({"aspect": a.key, "heading": a.heading, "change": kind, "old": was, "new": now,
                     "beyondChance": beyond_chance(was, now, len(ASPECTS)) if kind in (FIXED, BROKEN) else None})
    return {"cells": len(ASPECTS), "changed": rows, "counts": counts}


def beyond_chance(was: dict, now: dict, cells: int) -> bool:
    """Whether a mark that turned rests on counts that differ beyond chance: the side marked NO went wrong on a larger
    share of its requests (Fisher's exact test, one-sided, at the verdict's confidence over `cells` cells together): a
    mark resting on 1 of 900 turns between two JVMs of one version. A cell with no count (a timeout that never fired,
    a pool's bound) turned as a fact: True."""
    if "events" not in was or "events" not in now:
        return True
    from scipy import stats

    worse, better = (now, was) if now["mark"] == NOT_WANTED else (was, now)
    table = [[worse["events"]["bad"], worse["events"]["of"] - worse["events"]["bad"]],
             [better["events"]["bad"], better["events"]["of"] - better["events"]["bad"]]]
    return bool(stats.fisher_exact(table, alternative="greater").pvalue < (1 - CONFIDENCE) / cells)


def change_lines(c: dict, cases: int) -> list:
    """The changed cells for the terminal, one a line, the counts first; one line when none changed."""
    if not c["changed"]:
        apart = c["counts"][NOT_COMPARED]
        return [f"behaviour: no behaviour cell changed ({cases} cases, {c['cells'] - apart} cells"
                + (f"; {apart} not compared: neither version ran today's revision of its case)" if apart else ")")]
    n = c["counts"]
    said = ", ".join(f"{n[k]} {k}" for k in (FIXED, BROKEN, CHANGED, NOT_COMPARED) if n[k])
    lines = [f"behaviour: {said} of {c['cells']} cells ({cases} cases; ok = as a team would want it, NO = not)"]
    width = max(len(r["heading"]) for r in c["changed"])
    for r in c["changed"]:
        why = [x["why"] for x in (r["old"], r["new"]) if x["mark"] in (NOT_RUN, NOT_APPLICABLE, EARLIER)]
        lines.append(f"  {r['change']:<12}  {r['heading']:<{width}}  {cell_text(r['old'])} -> {cell_text(r['new'])}"
                     + (f" ({_short(why[0])})" if why else "") + (" (within chance)" if r.get("beyondChance") is False
                                                                 else ""))
    return lines


def _short(why: str, width: int = 60) -> str:
    return why if len(why) <= width else why[:width - 3] + "..."


def not_wanted(b: dict) -> dict:
    """client -> the headings of its NO cells, in the table's order: what the first screen says beside the costs. The
    headings are the decided table's own: a verdict written before an aspect existed has no cell for it."""
    headings = {a["key"]: a["heading"] for a in b["aspects"]}
    return {c: [headings[k] for k, x in cells.items() if x["mark"] == NOT_WANTED]
            for c, cells in b["clients"].items()}


def unjudged(b: dict) -> list:
    """The headings of the aspects some client has no mark in: the case did not run, or ran an earlier revision."""
    return [a["heading"] for a in b["aspects"]
            if any(cells[a["key"]]["mark"] in (NOT_RUN, EARLIER) for cells in b["clients"].values())]


def no_line(b: dict) -> str:
    """Each client's NO cells by heading, those with none, and the aspects not judged: the sentence the terminal and
    the report's first screen print under the cost table, after their own label."""
    no = not_wanted(b)
    said = "; ".join(f"{c}: {', '.join(h)}" for c, h in no.items() if h) or "none"
    clean = [c for c, h in no.items() if not h]
    missing = unjudged(b)
    return ("(not as a team would want it; the table below): " + said
            + (f"; none for {', '.join(clean)}" if clean else "")
            + (f"; not judged for some clients (not run, or an earlier revision): {', '.join(missing)}"
               if missing else "") + ".")


def marks(b: dict) -> dict:
    """client -> aspect -> mark: what two runs must agree on."""
    return {c: {k: x["mark"] for k, x in cells.items()} for c, cells in b["clients"].items()}


def rows(b: dict) -> list:
    """The table as rows of strings, the heading first: each cell its text and mark ('64 of 64 ok', '5 of 64 NO')."""
    out = [["client"] + [a["heading"] for a in b["aspects"]]]
    for client, cells in b["clients"].items():
        out.append([client] + [cell_text(cells[a["key"]]) for a in b["aspects"]])
    return out


def cell_text(cell: dict) -> str:
    if cell["mark"] in (NOT_APPLICABLE, NOT_RUN, NOT_REACHED, EARLIER):
        return cell["mark"]
    return f"{cell['text']} {cell['mark']}"


def terminal_table(b: dict, width: int = 118) -> str:
    """The behaviour table for the terminal: left-aligned columns; the widest that fit `width`, the rest named."""
    table = rows(b)
    keep = len(table[0])
    while keep > 2 and _width(table, keep) > width:
        keep -= 1
    widths = [max(len(r[i]) for r in table) for i in range(keep)]
    earlier = any(x["mark"] == EARLIER for cells in b["clients"].values() for x in cells.values())
    lines = textwrap.wrap(f"behaviour as shipped ({b['wallSeconds']} s): ok = as a team would want it, NO = not,"
                          + (" earlier = an older case" if earlier else " unreached = not provoked")
                          + " (docs/reference/behaviour.md)", width, subsequent_indent="  ")
    lines += ["  ".join(c.ljust(w) for c, w in zip(r[:keep], widths)).rstrip() for r in table]
    if keep < len(table[0]):
        lines += textwrap.wrap("in the report only: " + ", ".join(table[0][keep:]), width, subsequent_indent="  ")
    return "\n".join(lines) + "\n"


def _width(table: list, keep: int) -> int:
    return sum(max(len(r[i]) for r in table) for i in range(keep)) + 2 * (keep - 1)


def main(argv) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    try:
        b = decide(argv[1])
        if b is None:
            raise AnalysisError(f"{Path(argv[1]) / FILE}: missing; not a folder of ./bench behaviour")
        print(terminal_table(b), end="")
    except AnalysisError as e:
        print(f"behaviour: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

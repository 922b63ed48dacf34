"""What the decision table's columns come from, and what each client met there, in words: the load of each shape,
the SLO as the run judged it, and the requests that failed.

It judges nothing: the SLO was judged once, inside the run (summary.json's runs), and is only worded here.
"""
from __future__ import annotations

import json

from analysis import load as cbl

PROTOCOLS = {"http1": "HTTP/1.1", "h2c": "HTTP/2 cleartext", "h2": "HTTP/2 over TLS", "https": "HTTP/1.1 over TLS"}
# summary.json's names of the SLO's bounds (Java's Slo), as the reader says them.
BOUNDS = {"latencyP99Millis": "p99", "okShare": "ok share"}


def params(run: cbl.Run, shape: str) -> dict:
    """Every parameter the shape's forks ran with (JMH's defaults included), over what env.json lists."""
    trial = next((t for t in run.trials if t.shape == shape), None)
    return {**(trial.record.get("params", {}) if trial else {}), **run.shape_params(shape)}


def _n(x) -> str:
    return f"{int(float(x)):,}"


def load_parts(run: cbl.Run, shape: str, kind: str) -> dict:
    """The load of one shape as named phrases, in reading order: 'what' (4,000 req/s; 16 callers back to back),
    'request', 'connections', 'delay', 'protocol', 'rounds'; a caller says the phrases shapes share once."""
    if kind == "startup":
        starts = _startups(run)
        return {"what": "a fresh JVM per start to its first response"
                        + (f", {starts} starts a client" if starts else "")}
    p = params(run, shape)
    rounds = run.rounds_of(shape)
    method = "POST" if int(p.get("requestBytes") or 0) else "GET"
    what = {"closed": f"{_n(p.get('concurrency', 0))} callers back to back (a closed loop)",
            "capacity": f"the highest rate keeping the SLO, searched from {_n(p.get('startRate', 0))} to "
                        f"{_n(p.get('ceilingRate', 0))} req/s"}.get(kind, f"{_n(p.get('rate', 0))} req/s")
    delay = int(p.get("delayMs") or 0)
    parts = {"what": what, "request": f"{method} of {_n(p['bytes'])}-byte bodies" if p.get("bytes") else method,
             "connections": f"{_n(p['connections'])} connections" if p.get("connections") else "",
             "delay": "no server delay" if not delay else f"{delay:,} ms server delay",
             "protocol": PROTOCOLS.get(p.get("protocol", "http1"), p.get("protocol")),
             "rounds": f"{rounds} round{'s' if rounds != 1 else ''}"}
    return {k: x for k, x in parts.items() if x}


def load_words(run: cbl.Run, shape: str, kind: str) -> str:
    """The load of one shape in one phrase: '4,000 req/s, GET of 5-byte bodies, 64 connections, no server delay,
    HTTP/1.1, 3 rounds'."""
    return ", ".join(load_parts(run, shape, kind).values())


def _startups(run: cbl.Run) -> int:
    path = run.path / "startup.json"
    try:
        return int(json.loads(path.read_text(encoding="utf-8")).get("starts", 0)) if path.is_file() else 0
    except (ValueError, OSError):
        return 0


def target_words(run: cbl.Run) -> str:
    target = run.env.get("target") or ""
    return f"against {target}" if target.startswith(("http://", "https://")) else "against the stub on loopback"


def slo_words(run: cbl.Run) -> str:
    """The SLO's bounds: 'p99 <= 10 ms beyond the server's delay, >= 99.9% of requests ok'."""
    s = run.slo
    return (f"p99 <= {s['latencyP99Millis']:g} ms beyond the server's delay, >= {s['okShare']:.1%} of requests ok"
            .replace(".0%", "%"))


def outcome(run: cbl.Run, shape: str, client: str) -> dict | None:
    """At one fixed-rate shape, as the run judged and counted it: `slo` ('kept', 'missed', 'not judged' where the
    miss carried a host or harness flag, or 'not kept' where the run recorded no more than that), `missed` (the bounds, in words), `flags`, and the measured requests
    `sent`, `failed` (every failure class) and `unsent`. None where the shape has no result for the client."""
    r = next((x for x in run.summary.get("runs", []) if x["shape"] == shape and x["client"] == client), None)
    if r is None:
        return None
    judged = r.get("slo") or {}
    if not judged:  # a run that recorded its judgment as `sustained` alone
        slo = "-" if r.get("rate") is None else "kept" if r.get("sustained") else "not kept"
    elif judged.get("kept"):
        slo = "kept"
    else:
        slo = "missed" if judged.get("clients") else "not judged"
    return {"slo": slo, "missed": [BOUNDS.get(b, b) for b in judged.get("missed", [])],
            "flags": list(judged.get("flags", [])), "sent": int(r.get("sent") or 0),
            "failed": int(r.get("failures") or 0), "unsent": int(r.get("unsent") or 0)}


def slo_cell(o: dict | None) -> str:
    """'kept', 'missed p99', 'missed p99, ok share', 'not judged', 'not kept', or '-'."""
    if o is None:
        return "-"
    return f"missed {', '.join(o['missed'])}" if o["slo"] == "missed" and o["missed"] else o["slo"]


def failed_cell(o: dict | None) -> str:
    """'0', '200 (5.0%)', '3 +12 unsent' of the measured requests; '-' where not measured."""
    if o is None:
        return "-"
    text = f"{o['failed']:,}"
    if o["failed"] and o["sent"]:
        share = o["failed"] / o["sent"]
        text += f" ({share:.1%})" if share >= 0.001 else " (<0.1%)"
    return text + (f" +{o['unsent']:,} unsent" if o["unsent"] else "")


_HOST_WORDS = {"otherCpuShare": "other processes kept {:.0%} of the CPU busy",
               "stealShare": "the hypervisor stole {:.0%} of the CPU"}


def busy_words(made: dict | None) -> str:
    """'on a busy host (other processes kept 23% of the CPU busy)', for the verdict's first line; '' on a quiet one."""
    if not made or not made.get("busy"):
        return ""
    return "on a busy host (" + "; ".join(_HOST_WORDS[b["what"]].format(b["value"]) for b in made["busy"]) + ")"


def made_words(made: dict | None) -> str:
    """How the run was made, in one sentence: 'made with `./bench`, its forks at nice -10; over the run other processes
    kept 1% of the CPU busy and the hypervisor stole 0%'; '' for a run that recorded none of it."""
    if not made:
        return ""
    nice = made.get("forkNice") or []
    asked = made.get("askedNice")
    at = ("its forks at nice " + "/".join(map(str, nice))) if nice else "its forks' priority not recorded"
    if asked is not None and nice and asked not in nice:
        at += f", not the {asked} asked for (raising priority needs CAP_SYS_NICE)"
    host = [_HOST_WORDS[k].format(made[k]) for k in _HOST_WORDS if made.get(k) is not None]
    return (f"made with `{made.get('commandLine')}`, {at}" + ("; over the run " + " and ".join(host) if host else "")
            + fit_words(made.get("timeFit")))


def fit_words(fit: dict | None) -> str:
    """'; to end within its 60 min it planned 55 min of 66 estimated: it runs closed-x16 in 2 rounds, not 3 (closed-x16's
    pairs on 2 JVMs ...)': what the plan cut to fit the profile's time, and what each cut costs; '' where it cut nothing."""
    if not fit:
        return ""
    cuts = "; ".join(f"{c['what']} ({c['cost']})" for c in fit.get("cuts", []))
    minutes = f"{fit['fittedSeconds'] / 60:.0f} min of {fit['estimatedSeconds'] / 60:.0f} estimated"
    over = "" if fit.get("fits", True) else ", past that time even so"
    return (f"; to end within its {fit['leftSeconds'] / 60:.0f} min it planned {minutes}{over}"
            + (": it " + cuts if cuts else ""))

"""The report's words and tables as HTML: the first screen (verdict, decision table), then the details.

The first screen reads only the verdict as decided (analysis.decide.verdict's dict): it formats, never judges. The tables
below it read the run (analysis.load); the notebook displays these, and analysis.report.render makes it the report.
"""
from __future__ import annotations

import html
import itertools

import pandas as pd

from analysis.decide import behaviour as cbb
from analysis.decide import conditions as cond
from analysis.decide import verdict as cbd
from analysis.report import figures as figs
from analysis.decide import layercost as cblc
from analysis import load as cbl

VERDICT_LINES = 6


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _table(df: pd.DataFrame) -> str:
    return df.to_html(index=False, border=0, na_rep="-", escape=True)


# ---------------------------------------------------------------- the first screen

def key_figures(run: cbl.Run, v: dict) -> list:
    """(short name, the verdict's figure) per column of the decision table: analysis.decide.verdict's columns, so the
    report and the terminal show the same figures under the same names."""
    params = {s: run.shape_params(s) for s in run.shapes}
    return [(cbd.column_name(params, shape, key), figs.figure(v, shape, key)) for shape, key in cbd.columns(v)]


def verdict_lines(run: cbl.Run, v: dict) -> list:
    """At most six lines: what the verdict holds for, the best tier of each key figure that told clients apart,
    and the key figures that told none apart."""
    hf = v["holdsFor"]
    busy = cond.busy_words(hf.get("conditions"))
    lines = [f"For {hf['cores']} cores of {hf['cpuModel']}, JDK {hf['jdk']}, profile {hf['profile']}"
             + (f", {busy}" if busy else "") + (": a first look, not for decisions." if hf["firstLook"] else ".")]
    ranked = key_figures(run, v)
    apart = [(name, f) for name, f in ranked if f["pairs"]["separated"]]
    tied = [name for name, f in ranked if not f["pairs"]["separated"]]
    room = VERDICT_LINES - len(lines) - (1 if tied else 0)
    if len(apart) > room:
        more = [name for name, _ in apart[room - 1:]]
        lines += [_best(*x) for x in apart[:room - 1]] + [f"Also told apart (see the table): {', '.join(more)}."]
    else:
        lines += [_best(*x) for x in apart]
    if tied:
        lines.append(f"Not told apart: {', '.join(tied)}.")
    return lines


def _best(name: str, f: dict) -> str:
    first = cbd.leaders(f)
    lead = (f"{'highest' if f['better'] == 'higher' else 'lowest'} {', '.join(first)}, told apart from all the rest"
            if first else "no client told apart from all the rest")
    n = f["pairs"]["of"]
    return f"{name}: {lead}; {f['pairs']['separated']} of {n} pair{'s' if n != 1 else ''} told apart."


def cell(f: dict, client: str) -> tuple:
    """(text, interval, details) of one client's figure: '66us* a' as the terminal prints it, its 95% interval shown
    under it ('58us-75us'; 'exact' for a figure without spread), and on hover what it rests on and its marks."""
    c = f["clients"].get(client)
    if c is None:
        why = f["notRanked"].get(client, "not measured")
        return "-", why.split(":")[0].split(" (")[0], f"not ranked: {why}"
    unit = f["unit"]
    if f["method"] == "exact":
        interval = "exact"
    elif c["low"] and c["high"]:
        interval = f"{cbd.bare(c['low'], unit)}\u2013{cbd.bare(c['high'], unit)}"
    else:
        interval = "no interval"
    marks = f"; marked: {', '.join(c['marks'])}" if c["marks"] else ""
    return (cbd.cell_text(f, client), interval,
            f"95% interval {interval}, from {c['n']} {'rounds' if f['method'] == 'rounds' else 'values'}{marks}")


def decision_table(run: cbl.Run, v: dict) -> tuple:
    """(columns, outcomes, sentences): per key figure its name, the verdict's figure and each client's cell; the SLO
    and failed requests at the common rate (cbd.outcome_columns); a column with the same cell for every client
    becomes a sentence, and so do the shapes that ranked nothing."""
    columns, sentences = [], []
    for name, f in key_figures(run, v):
        cells = {c: cell(f, c) for c in v["clients"]}
        texts = {t for t, _, _ in cells.values()}
        if len(texts) == 1 and len(v["clients"]) > 1:
            text = texts.pop()
            sentences.append(f"{f['label']} at {f['shape']}: " + (
                "not ranked for any client." if text == "-" else f"{text} for every client."))
        else:
            columns.append((name, f, cells))
    ranked = {s["shape"] for s in v["shapes"]}
    nothing = [s for s in cbl.shapes_of(run, "open", "closed", "capacity") if s not in ranked]
    if nothing:
        sentences.append(f"Nothing ranked at {', '.join(nothing)}: see below.")
    return columns, cbd.outcome_columns(run, v), sentences


def decision_table_html(run: cbl.Run, v: dict) -> str:
    columns, outcomes, sentences = decision_table(run, v)
    head = "".join(f'<th title="{_e(_column_details(f))}">{_e(name)}</th>' for name, f, _ in columns)
    head += "".join(f'<th class="outcome">{_e(name)}</th>' for name in outcomes)
    body = "".join("<tr><th>" + _e(c) + "</th>" + "".join(_cell_html(*cells[c]) for _, _, cells in columns)
                   + "".join(_outcome_html(name, cells[c]) for name, cells in outcomes.items()) + "</tr>"
                   for c in v["clients"])
    told = "".join(f"<td>{f['pairs']['separated']}/{f['pairs']['of']}</td>" for _, f, _ in columns)
    told += "<td></td>" * len(outcomes)
    said = "".join(f"<li>{_e(s)}</li>" for s in sentences)
    return (f'<table class="decision"><thead><tr><th>client</th>{head}</tr></thead><tbody>{body}</tbody>'
            f'<tfoot><tr><th>told apart</th>{told}</tr></tfoot></table>'
            + (f'<ul class="notes">{said}</ul>' if said else ""))


def _cell_html(text: str, interval: str, details: str) -> str:
    value, _, tier = text.rpartition(" ")  # the letters in a column of their own width, so the values line up
    shown = f'<span class="ci">{_e(interval)}</span>' if interval else ""
    return f'<td title="{_e(details)}">{_e(value or text)} <span class="tier">{_e(tier if value else "")}</span>{shown}</td>'


def _outcome_html(name: str, text: str) -> str:
    kind = "slo" if name.startswith("SLO") else "failed"
    state = " bad" if text.startswith(("missed", "not kept")) or (kind == "failed" and text not in ("0", "-")) else ""
    return f'<td class="{kind}{state}">{_e(text)}</td>'


def _column_details(f: dict) -> str:
    return (f"{f['label']} at {f['shape']}: {f['better']} is better; {f['pairs']['separated']} of "
            f"{f['pairs']['of']} pairs told apart; intervals from {f['method']}")


def first_screen_html(run: cbl.Run, v: dict) -> str:
    """The title, the verdict in at most six lines, the load the columns come from, and the decision table with the SLO
    and the failed requests at the common rate; what every client's figure carries is said once below it."""
    lines = verdict_lines(run, v)
    banner = '<p class="banner">' + _e(lines[0]) + "</p>" if v["holdsFor"]["firstLook"] else f"<p>{_e(lines[0])}</p>"
    notes = []
    made = cond.made_words(v["holdsFor"].get("conditions"))
    if made:
        notes.append(made[0].upper() + made[1:] + ".")
    if cbd.common_shape(v):
        notes.append(cbd.slo_line(run, v) + ".")
        floor = cbd.floor_line(run, v)
        if floor:
            notes.append(floor[0].upper() + floor[1:] + ".")
    once = cbd.said_once(run, v)
    if once:
        notes.append("On every client, so said once and not starred: " + "; ".join(once) + ".")
    flagged = v.get("flaggedRounds", [])
    if flagged:
        notes.append(f"{len(flagged)} round{'s' if len(flagged) != 1 else ''} flagged by the host and kept: "
                     + ", ".join(f"{r['shape']} round {r['round']} ({', '.join(r['flags'])})" for r in flagged) + ".")
    notes += [f"Interleaved {cbd.unstopped_words(u)}." for u in v.get("unstoppedSets", [])]
    notes.append("Letters: clients sharing one are not told apart; under each figure its 95% interval; * a mark only "
                 "that client carries (hover a cell for its rounds and marks, a heading for its figure).")
    decided = cbd.decided_lines(run, v)
    decided = (f'<p class="decided"><b>Each pair</b>, told apart, alike within a margin, or open (the smallest margin '
               f'it could show): {"; ".join(_e(x) for x in decided)}.</p>') if decided else ""
    return (f"<h1>Which HTTP client? Run {_e(run.name)}</h1>{banner}<ol class=\"verdict\">"
            + "".join(f"<li>{_e(x)}</li>" for x in lines[1:]) + "</ol>"
            + f'<p class="load"><b>Load</b>: {_e(cbd.load_line(run, v))}.</p>' + decision_table_html(run, v) + decided
            + f'<p class="notes">{" ".join(_e(n) for n in notes)} <a href="#how-to-read-this">How to read this</a></p>'
            + behaviour_line_html(v) + layer_cost_html(run, v))


def layer_cost_html(run: cbl.Run, v: dict) -> str:
    """Each layer's cost over its engine, as the verdict judged it (`layerCost`); "" for a run without one."""
    costs = v.get("layerCost")
    if not costs:
        return ""
    rows = cblc.table_rows(costs, {k: cbd.column_name({}, "", k) for k in cblc.SHOWN})
    head = "".join(f"<th>{_e(h)}</th>" for h in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{_e(x)}</td>" for x in r) + "</tr>" for r in rows[1:])
    caption = cblc.caption(costs, cbd.where(run.shape_params(costs["shape"])))
    return (f'<h3>The layer over its engine</h3><p>{_e(caption[0].upper() + caption[1:])}.</p>'
            f'<table class="layers"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')


def behaviour_line_html(v: dict) -> str:
    """Under the cost table: each client's behaviour cells marked NO, by their headings (the table comes later)."""
    b = v.get("behaviour")
    if not b:
        return ""
    return f'<p class="behaviour-no"><b>Behaviour, NO</b> {_e(cbb.no_line(b))}</p>'


# ---------------------------------------------------------------- behaviour

def behaviour_html(v: dict) -> str:
    """The behaviour table as decided (the verdict's `behaviour`): each cell its count or time and its mark, the
    aspect's words and a cell's why on hover; nothing when the run has no behaviour.json."""
    b = v.get("behaviour")
    if not b:
        return "<p>This run has no behaviour cases (./bench behaviour, or the quick and standard profiles, run them).</p>"
    head = "".join(f'<th title="{_e(a["label"])}">{_e(a["heading"])}</th>' for a in b["aspects"])
    layers = v.get("layerBehaviour", [])
    changed = {(x["layer"], r["aspect"]): x["bare"] for x in layers for r in x["changed"]}
    body = "".join("<tr><th>" + _e(c) + "</th>" + "".join(
        f'<td class="mark-{_e(cells[a["key"]]["mark"])}" title="{_e(cells[a["key"]]["why"])}">'
        f'{_e(cells[a["key"]]["text"])} <b>{_e(cells[a["key"]]["mark"])}</b>'
        + (f' <i title="not as {_e(changed[c, a["key"]])} does">&ne; {_e(changed[c, a["key"]])}</i>'
           if (c, a["key"]) in changed else "") + "</td>" for a in b["aspects"]) + "</tr>"
                   for c, cells in b["clients"].items())
    said = "".join(f"<li>{_e(x)}</li>" for x in cblc.behaviour_lines(layers))
    if said:
        said = f"<p>What each layer changes in its engine's behaviour (the engine's cell -> the layer's):</p><ul>{said}</ul>"
    return (f'<div class="wide"><table class="behaviour"><thead><tr><th>client</th>{head}</tr></thead><tbody>{body}'
            f'</tbody></table></div>'
            f'<p class="notes">Each client as its team ships it (the library\'s own retries and connection checks; the '
            f'default pool, slow host, unclosed body and pool timeouts at the library\'s own limits), {b["wallSeconds"]} s for all. ok: as a team '
            f'would want it; NO: not; n/a: the client cannot take part; unreached: the stub\'s counts say the case never '
            f'provoked its condition for the client; earlier: the run measured an earlier revision of the case, not '
            f'judged today; failed: the case did not run (hover for why). '
            f'The bounds are thresholds.json\'s; what each case provokes and the upstream issue it reproduces: '
            f'docs/reference/behaviour.md.</p>' + said)


# ---------------------------------------------------------------- the details

def rankings_html(run: cbl.Run, s: dict) -> str:
    """One shape of the verdict: each figure's full ranking in analysis.decide.verdict's words, best first."""
    items = "".join(f"<li><b>{_e(f['label'])}</b> ({f['pairs']['separated']} of {f['pairs']['of']} pairs told apart):"
                    f" {_e(cbd.figure_words(f))}</li>" for f in s["figures"])
    return f"<h3>{_e(cbd.shape_words(run, s['shape']) if s['shape'] in run.shapes else s['shape'])}</h3><ul>{items}</ul>"


FAILURE_WORDS = {"status": "a non-2xx status", "timeout": "the client's timeout", "connect": "no connection",
                 "reset": "the connection reset or closed", "rejected": "the client refused it (pool or queue full)",
                 "other": "anything else (a body of the wrong length)",
                 "unsent": "the pacer could not send it in time", "expired": "still out at the drain deadline"}


def failures_html(run: cbl.Run, shapes: list) -> str:
    """Per shape and client the measured requests sent and those that did not end ok, by class; the caption names
    the columns the table has (a class no request fell in is left out, and said so)."""
    rows = []
    for shape in shapes:
        for client in run.clients:
            if run.trials_of(shape, client):
                counts = cbl.failures_by_class(run, shape, client)
                rows.append({"shape": shape, "client": client, **{k: counts[k] for k in ["sent"] + figs.FAILURE_KINDS}})
    t = pd.DataFrame(rows)
    shown = [k for k in figs.FAILURE_KINDS if t[k].any()]
    none = [k for k in figs.FAILURE_KINDS if k not in shown]
    caption = ("Measured requests that did not end ok, by class: "
               + "; ".join(f"<b>{k}</b>, {_e(FAILURE_WORDS.get(k, k))}" for k in shown) + "."
               + (f" None was {', '.join(none)}." if none else ""))
    return f'<p class="caption">{caption}</p>' + _table(t[["shape", "client", "sent", *shown]])


def long_lived_html(run: cbl.Run) -> str:
    t = cbl.long_lived(run)
    t = pd.DataFrame({"shape": t["shape"], "client": t["client"], "requests asked": t["asked"],
                      "held when the window closed": t["held"],
                      "heap per request held": [cbd.fmt(x, "B") for x in t["heap/req"]],
                      "threads per request held": t["threads/req"].round(3), "ms to hold them": t["open.ms"].round(0),
                      "failed": t["failures"], "the client's JVM": t["failed"].replace("", "ran")})
    return _table(t)


def two_runs_html(a: cbl.Run, b: cbl.Run) -> str:
    first = cbd.compare_text(a, b).splitlines()[0]
    return f"<p><strong>{_e(first)}</strong></p>" + _table(pd.DataFrame(cbd.compare_runs(a, b)))


def environment_html(run: cbl.Run) -> str:
    env, m, jdk = run.env, run.env.get("machine", {}), run.env.get("launcherJdk", {})
    facts = [("run", run.name), ("profile", f"{env.get('profile')}: {env.get('purpose')}"),
             ("machine", f"{m.get('cpuCount')} x {m.get('cpuModel')}, {m.get('memoryBytes', 0) / 2**30:.0f} GiB, "
                         f"{m.get('os')} {m.get('kernel')} ({m.get('arch')}), taskset {m.get('taskset')}"),
             ("JDK", f"{jdk.get('version')} ({jdk.get('vendor')}), {jdk.get('vm')}"),
             ("client JVM flags", " ".join(a for a in env.get("forkJvmArgs", []) if not a.startswith("-Dclientbench.hlog"))),
             ("target", env.get("target")), ("request", _request_words(env.get("request"))),
             ("timeouts", ", ".join(f"{k.removesuffix('Timeout')} {cbl._iso_seconds(v):g} s"
                                    for k, v in env.get("settings", {}).items())),
             ("started, finished", f"{env.get('started')}, {env.get('finished')}")]
    facts += [("skipped", s) for s in env.get("skipped", [])] + [("failed", s) for s in env.get("failed", [])]
    shapes = pd.DataFrame([{"shape": s["name"], "load": cond.load_words(run, s["name"], cbl.kind(run, s["name"])),
                            "warm-up, measured": _timings(s.get("timings") or {}),
                            "to run it alone": f"./bench jmh {s['benchmark'].split('.')[-2]} "
                                               + " ".join(f"-p {k}={v}" for k, v in sorted(s["params"].items()) if v)}
                           for s in env.get("shapes", [])])
    rounds = pd.DataFrame([{"shape": r["shape"], "round": r["round"], "order": ", ".join(r.get("order", [])),
                            "host's steal (median)": _share(r.get("stealMedian")),
                            "noop's CPU per request": cbd.fmt(r.get("noopCpuMicrosPerRequest"), "us"),
                            "flagged": "; ".join(ROUND_FLAGS.get(f, f) for f in r.get("flags", [])),
                            "run again": _repeat_words(r.get("repeat"))} for r in cbl.rounds(run)])
    keys = {"library": "library", "protocol": "protocol", "httpVersion": "HTTP version",
            "maxConnections": "connections at most", "ioThreads": "I/O threads", "ioThreadsKind": "what the I/O threads are",
            "transport": "transport", "threading": "where callbacks run"}
    settings = pd.DataFrame([{"client": c, **{name: s.get(k, "-") for k, name in keys.items()}}
                             for c, s in env.get("clientSettings", {}).items()])
    return ("<h3>Run</h3>" + _table(pd.DataFrame(facts, columns=["", "value"])) + "<h3>Shapes</h3>" + _table(shapes)
            + "<h3>Rounds</h3>" + _table(rounds)
            + "<h3>Client settings</h3><p>Every setting of every client is in each trial's JSON; the main ones:</p>"
            + _table(settings))


# A round's flags (env.json's rounds), as the reader says them.
ROUND_FLAGS = {"steal": "the host took CPU from the run (steal)",
               "noop-slow": "noop, the harness alone, spent more CPU per request than usual (noop-slow)"}


def _request_words(request) -> str:
    """env.json's request (what each request was, what counted as ok) as a sentence, not its JSON."""
    if not request:
        return "-"
    return "; ".join(str(x) for x in request.values()) if isinstance(request, dict) else str(request)


def _repeat_words(repeat) -> str:
    """A flagged round's repeat in words: why it was or was not run again, and which run stands."""
    if not repeat:
        return ""
    return f"{repeat.get('why', '')}" + ("; the repeat stands" if repeat.get("stands") else "")


def _timings(t: dict) -> str:
    """'1 x 1 s, then 3 x 2 s': JMH's iterations of warm-up and of measurement."""
    if not t:
        return "-"
    return (f"{t.get('warmupIterations', 0)} x {t.get('warmupSeconds', 0)} s, then "
            f"{t.get('measurementIterations', 0)} x {t.get('measurementSeconds', 0)} s")


def _share(x) -> str:
    return "-" if x is None or x != x else f"{x:.0%}"


def how_to_read_html(run: cbl.Run, v: dict) -> str:
    """The columns, the estimate, the letters, the intervals and the marks: README's "How to read" from the same
    list (analysis.decide.verdict.reading_guide), and every mark's words."""
    hf = v["holdsFor"]
    columns = "".join(f"<li><b>{_e(name)}</b>: {_e(meaning)}.</li>" for name, meaning in cbd.reading_guide(run, v))
    marks = "".join(f"<li><b>{_e(k)}</b>: {_e(t.format(jit=cbl.JIT_WARMING))}</li>" for k, t in cbd.MARKS.items())
    return (f'<h2 id="how-to-read-this">How to read this</h2><ul>'
            f"<li><b>Columns</b> of the decision table, each one figure at one load (the line <i>Load</i> above it):"
            f"<ul>{columns}</ul></li>"
            "<li><b>Rounds</b>: every shape runs in rounds of one fork per client and noop (the harness alone), a new "
            "order each round, so a slow spell of the host costs every client alike.</li>"
            "<li><b>One estimate per figure</b>: per fork the figure over its measured windows (a percentile from its "
            "merged histograms, a cost over its requests, net of noop's fork in the same round), and over the rounds "
            "the client's effect with the rounds' taken out; the table, the figures and results.csv all show it.</li>"
            f"<li><b>Letters</b>: a compact letter display. Each pair of clients is compared on each figure at "
            f"{cbl.percent(hf['confidence'])} over every pair of that figure (Games-Howell on the log figure, round effects "
            "taken out as medians, each pair on its own two spreads); clients sharing a letter are not told apart, and "
            "'a' holds the best. A client measured in one round gets no letters.</li>"
            "<li><b>Intervals</b>: each client's 95% interval of the figure, under its value in the table and as bars in "
            "the figures.</li>"
            "<li><b>Marks</b>: a validity flag raised in a window of the figure. A mark every client of a column carries "
            "is said once under the table; * marks one that only some clients carry. The figure is ranked with its "
            f"mark; a knee that is only a lower bound is never found worse.<ul>{marks}</ul></li></ul>")


def _behaviour_changes(b: dict | None) -> str:
    """An upgrade's behaviour cells that changed mark, old and new beside each other, above the ratios."""
    if not b:
        return ""
    head = cbb.change_lines(b, b["cases"])[0]
    rows = pd.DataFrame([{"change": r["change"], "column": r["heading"], "old": cbb.cell_text(r["old"]),
                          "new": cbb.cell_text(r["new"])} for r in b["changed"]], columns=["change", "column", "old", "new"])
    return f"<p>{_e(head)}</p>" + (_table(rows) if b["changed"] else "")


def upgrade_html(run: cbl.Run, u: dict) -> str:
    """An upgrade run's answer first: per figure the two versions' values, new/old with its interval, the verdict
    and the smallest change the run could detect, from summary.json's `upgrade` (analysis.decide.upgrade decided it)."""
    import base64

    from analysis.decide import upgrade as cbu

    lines = cbu.terminal_upgrade(run, u).splitlines()
    head = "".join(f"<li>{_e(line.strip())}</li>" for line in cbu.versions(u))
    first = next((i for i, line in enumerate(lines) if line.startswith("verdict")), len(lines))
    said = lines[first:first + 1] + list(itertools.takewhile(lambda line: line.startswith("  "), lines[first + 1:]))
    png = run.path / cbu.PNG
    img = (f'<img alt="new/old per figure with its interval" src="data:image/png;base64,'
           f'{base64.b64encode(png.read_bytes()).decode("ascii")}">' if png.is_file() else "")
    return (f"<h2>{_e(lines[0])}</h2><ul>{head}</ul>" + _behaviour_changes(u.get("behaviour")) + _table(cbu.table(u))
            + f"<p>{_e(' '.join(said))}</p>" + img)


"""The report's figures, drawn from a run (analysis.load) and its verdict (analysis.decide.verdict's dict).

One hue per client family (Paul Tol's colour-blind-safe 'muted'); a -vt variant dashed in its base's hue, a Spring
layer dash-dotted in its engine's; noop grey, dotted. Each function returns a matplotlib figure whose label is its
alternative text; `show` embeds it as a PNG.
"""
from __future__ import annotations

import io
import math

import matplotlib

matplotlib.use("Agg")  # files and inline images only; no window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analysis.decide import verdict as cbd  # noqa: E402
from analysis.report import estimates as est  # noqa: E402
from analysis import load as cbl  # noqa: E402
from analysis.stats import pairwise as cbs  # noqa: E402

BASE_COLOURS = {"ahc": "#CC6677", "apache": "#332288", "jetty": "#DDCC77", "okhttp": "#117733", "jdk": "#88CCEE",
                "reactor": "#882255", "vertx": "#44AA99", "helidon": "#999933"}
EXTRA_COLOURS = ["#AA4499", "#000000", "#6699CC", "#EE7733"]  # clients beyond the eight families
NOOP_COLOUR = "#888888"
FLAGGED = "#8a5a00"  # what a validity flag touched: a probe it failed, a note under a figure
ROUND_MARKERS = "os^Dv<>p"
DPI = 80
PERCENTILE_TICKS = ([2, 10, 100, 1000, 10000, 1e5], ["50", "90", "99", "99.9", "99.99", "max"])
plt.rcParams.update({"font.size": 9, "axes.titlesize": 9, "axes.spines.top": False, "axes.spines.right": False,
                     "legend.fontsize": 8, "legend.frameon": False})


LAYERS = ("restclient-", "webclient-")  # Spring's clients, each named after the engine it runs over


def style(client: str) -> dict:
    """Colour and line style: -vt variants in their base client's hue, dashed; a Spring layer in its engine's hue,
    dash-dotted; noop grey, dotted."""
    if client == cbl.NOOP:
        return {"color": NOOP_COLOUR, "linestyle": ":"}
    layer = client.startswith(LAYERS)
    base = client.split("-", 1)[1] if layer else client.removesuffix("-vt")
    colour = BASE_COLOURS.get(base) or EXTRA_COLOURS[sum(map(ord, base)) % len(EXTRA_COLOURS)]
    return {"color": colour, "linestyle": "-." if layer else "--" if client.endswith("-vt") else "-"}


def png(fig, dpi: int = DPI) -> bytes:
    """The figure as a small PNG: rendered at `dpi`, then reduced to a 64-colour palette."""
    from PIL import Image

    raw = io.BytesIO()
    fig.savefig(raw, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    raw.seek(0)
    out = io.BytesIO()
    Image.open(raw).convert("RGB").quantize(colors=64).save(out, format="png", optimize=True)
    return out.getvalue()


def text_boxes(fig, dpi: int = DPI) -> dict:
    """Where the figure's texts land in its PNG (`png` at `dpi`): {"width", "height", "texts": [[x0, y0, x1, y1,
    text, angle, w, h], ...]} in pixels from the top left, for every text drawn (tick labels, titles, axis labels,
    letters, legends): its upright box, and for a slanted text its angle (degrees, anticlockwise) and unturned size,
    the box's centre being its own. Matplotlib's layout, so a test can see labels overlap without reading pixels."""
    from matplotlib.text import Text

    fig.set_dpi(dpi)
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    pad = plt.rcParams["savefig.pad_inches"]
    tight = fig.get_tightbbox(renderer)
    left, top = (tight.x0 - pad) * dpi, (tight.y1 + pad) * dpi
    ticks = {id(t) for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
             for tick in axis.get_major_ticks() + axis.get_minor_ticks() for t in (tick.label1, tick.label2)}
    drawn = [label for ax in fig.axes if ax.get_visible() for axis in (ax.xaxis, ax.yaxis)
             for tick in axis._update_ticks() for label in (tick.label1, tick.label2)]  # only the ticks drawn
    texts = drawn + [t for t in fig.findobj(Text) if id(t) not in ticks and (t.axes is None or t.axes.get_visible())]
    boxes = []
    for t in texts:
        if t.get_visible() and t.get_text().strip():
            b, angle = t.get_window_extent(renderer), t.get_rotation()
            t.set_rotation(0)
            upright = t.get_window_extent(renderer)
            t.set_rotation(angle)
            boxes.append([round(b.x0 - left, 1), round(top - b.y1, 1), round(b.x1 - left, 1), round(top - b.y0, 1),
                          t.get_text()[:40], round(angle, 1), round(upright.width, 1), round(upright.height, 1)])
    return {"width": round((tight.width + 2 * pad) * dpi), "height": round((tight.height + 2 * pad) * dpi),
            "texts": boxes}


def show(fig):
    """Embeds the figure in the notebook's output (and so in the report), its label as the alternative text and where
    its texts land (`text_boxes`) in a data attribute."""
    import base64
    import html
    import json

    from IPython.display import HTML, display

    alt = html.escape(fig.get_label() or "figure", quote=True)
    layout = html.escape(json.dumps(text_boxes(fig), separators=(",", ":")), quote=True)
    display(HTML(f'<img alt="{alt}" data-texts="{layout}" '
                 f'src="data:image/png;base64,{base64.b64encode(png(fig)).decode("ascii")}">'))


# ---------------------------------------------------------------- what the verdict holds

def figure(v: dict, shape: str, key: str) -> dict | None:
    """The verdict's figure `key` of `shape`, or None where it ranked none."""
    return next((f for s in v["shapes"] if s["shape"] == shape for f in s["figures"] if f["figure"] == key), None)


def common_cpu(v: dict) -> dict | None:
    """CPU per request in the decision table's first shape that has it (the common rate: analysis.decide.verdict's
    columns put the fixed-rate shape with the most rounds first)."""
    return next((figure(v, shape, key) for shape, key in cbd.columns(v) if key == "cpu"), None)


def round_values(run: cbl.Run, f: dict) -> pd.DataFrame:
    """Each fork's figure as the verdict compared it (client, round, value): net of noop's in its round, beyond
    the server's delay; analysis.decide.verdict's own netting, so the dots are what was ranked."""
    forks = cbl.forks(run)
    if f["shape"] not in run.shapes:  # before the first request: starts, not forks
        return pd.DataFrame(columns=["client", "round", "value"])
    rows = cbd.net_of_noop(forks[forks["shape"] == f["shape"]], cbd.BY_KEY[f["figure"]])
    rows["value"] = rows["value"] - f["beyondDelayMicros"]
    return rows[rows["value"] > 0]


# ---------------------------------------------------------------- helpers

def _legend_outside(fig, axes):
    handles, labels = {}, []
    for ax in np.ravel(axes):
        for h, label in zip(*ax.get_legend_handles_labels()):
            if label not in handles:
                handles[label] = h
                labels.append(label)
    if labels:
        fig.legend([handles[label] for label in labels], labels, loc="upper left", bbox_to_anchor=(1.0, 0.95))


def _unit_axis(ax, unit: str):
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: cbd.fmt(y, unit) if y > 0 else ""))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def _log_axis(ax, unit: str):
    """A log y axis labelled in `unit`: 1-2-5 ticks (powers of two for bytes), or round numbers over a narrow range."""
    ax.set_yscale("log")
    low, high = ax.get_ylim()
    if high / low >= 3:
        base, subs = (2, (1, 1.5)) if unit == "B" else (10, (1, 2, 5) if high / low < 300 else (1,))
        ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=base, subs=subs))
    else:
        scale = 1024 if unit == "B" else 1
        ticks = matplotlib.ticker.MaxNLocator(4).tick_values(low / scale, high / scale) * scale
        ax.yaxis.set_major_locator(matplotlib.ticker.FixedLocator(ticks))
    _unit_axis(ax, unit)


def _plot_spectrum(ax, points: dict, client: str):
    """One client's spectrum: {percentile: microseconds}, the largest value at the right end."""
    if not points:
        return
    x = [1 / (1 - p / 100) if p < 100 else 1e5 for p in points]
    ax.plot(x, np.maximum(np.array(list(points.values()), dtype=float), 1.0), marker=".", label=client, **style(client))
    ax.set(xscale="log", yscale="log", xlabel="percentile")
    ax.set_xticks(*PERCENTILE_TICKS)
    ax.minorticks_off()
    _unit_axis(ax, "us")


# ---------------------------------------------------------------- one figure of one shape, round by round

def rounds_panel(ax, run: cbl.Run, f: dict):
    """One ranked figure: per client (best first) a dot per round, the verdict's estimate and 95% interval, and
    its letters under its name; a client marked with a flag has '*' after its name."""
    order = list(f["clients"])
    values = round_values(run, f)
    for x, client in enumerate(order):
        c = f["clients"][client]
        colour = style(client)["color"]
        for _, r in values[values["client"] == client].iterrows():
            ax.plot(x, r["value"], marker=_marker(r["round"]), color=colour, markersize=5, linestyle="none", alpha=0.8)
        if c["low"] and c["high"]:
            ax.plot([x, x], [c["low"], c["high"]], color="black", linewidth=1.2)
        ax.plot(x, c["value"], marker="_", markersize=14, color="black", linestyle="none")
    many = len(order) > 4  # long names slant; the letters sit above each client's column, clear of its name
    ax.set_xticks(range(len(order)), [f"{cl}{'*' if cbd.starred(f, cl) else ''}" for cl in order],
                  rotation=40 if many else 0, ha="right" if many else "center", rotation_mode="anchor")
    longest = max((len(f["clients"][cl]["letters"]) for cl in order), default=0)
    upright = many and longest > 2  # long letters side by side would run into their neighbours' letters
    for x, client in enumerate(order):
        c = f["clients"][client]
        tops = [v for v in (c["high"], c["value"], *values[values["client"] == client]["value"]) if v and v > 0]
        at, coords = ((x, max(tops)), "data") if tops else ((x, 0.02), ("data", "axes fraction"))
        ax.annotate(c["letters"], at, xycoords=coords, xytext=(0, 3), textcoords="offset points", ha="center",
                    va="bottom", fontsize=7, rotation=90 if upright else 0)
    ax.set_xlim(-0.6, len(order) - 0.4)
    ax.set_yscale("log")
    low, high = ax.get_ylim()
    room = 0.08 * longest if upright else 0.15  # above the top column for its letters, under the title
    ax.set_ylim(low, high * (high / low) ** room)
    _log_axis(ax, f["unit"])
    ax.set_title(f"{f['label']}{' net of noop' if f['net'] else ''}\n{panel_caption(f)}")


def panel_caption(f: dict) -> str:
    """A ranked figure's second title line, short enough to sit over its own panel."""
    gone = f"; {len(f['notRanked'])} not ranked" if f["notRanked"] else ""
    if f["why"]:
        return f"{f['better']} is better; no letters{': one round' if f['why'] == cbs.ONE_ROUND else ''}{gone}"
    return f"{f['better']} is better; {f['pairs']['separated']} of {f['pairs']['of']} pairs apart{gone}"


def _marker(round_number) -> str:
    return ROUND_MARKERS[(int(round_number) - 1) % len(ROUND_MARKERS)]


def _round_legend(where, rounds: int, **kw):
    """A legend of the round markers and the interval on a figure or axes."""
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], marker=_marker(r), color="#555555", linestyle="none") for r in range(1, rounds + 1)]
    handles.append(Line2D([], [], color="black", marker="_", markersize=10, linewidth=1.2))
    where.legend(handles, [f"round {r}" for r in range(1, rounds + 1)] + ["estimate, 95% interval"],
                 **({"loc": "upper left", "bbox_to_anchor": (1.0, 0.95)} | kw))


def rounds_figure(run: cbl.Run, v: dict, shape: str):
    """Every figure the verdict ranked in `shape`, one panel each."""
    s = next(s for s in v["shapes"] if s["shape"] == shape)
    cols = min(3, len(s["figures"]))
    rows = math.ceil(len(s["figures"]) / cols)
    # a shape of one or two figures gives each the room of three: twelve slanted names, some starred, need it
    fig, axes = plt.subplots(rows, cols, figsize=(10.8 if cols < 3 else 3.6 * cols, 2.9 * rows), squeeze=False)
    for ax, f in zip(axes.flat, s["figures"]):
        rounds_panel(ax, run, f)
    for ax in axes.flat[len(s["figures"]):]:
        ax.set_visible(False)
    _round_legend(fig, max(f["rounds"] for f in s["figures"]))
    fig.set_label(f"{shape}: each ranked figure per client, a dot per round, with its 95% interval and letters")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- the main figure

def main_figure(run: cbl.Run, v: dict):
    """The report's and README's headline: CPU per request at the common rate, round by round with the verdict's
    interval and letters, and the latency spectra there."""
    cpu = common_cpu(v)
    fig, (a_cpu, a_lat) = plt.subplots(1, 2, figsize=(12, 3.2), gridspec_kw={"width_ratios": [1, 1.2]})
    if cpu:
        rounds_panel(a_cpu, run, cpu)
        a_cpu.set_title(f"CPU per request at {cpu['shape']}, net of the harness (letters: tiers)")
        _round_legend(a_cpu, cpu["rounds"], loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7)
        spectra_panel(a_lat, run, cpu["shape"])
        a_lat.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    else:
        a_cpu.axis("off")
        a_lat.axis("off")
    fig.set_label("CPU per request per client at the common rate, with intervals and tiers, and latency spectra there")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- latency

def spectra_panel(ax, run: cbl.Run, shape: str):
    """Latency from the intended start (service time in a closed loop) beyond the server's delay, each percentile
    estimated over the rounds as the verdict estimates its figures (analysis.report.estimates), so its p50 and p99 are
    the table's."""
    delay_ms = int(run.shape_params(shape).get("delayMs") or 0)
    tag = "service" if cbl.kind(run, shape) == "closed" else "latency"
    spectra = est.percentiles(run, shape, tag)
    # A closed loop's noop answers at once: its service time is not on the clients' scale.
    for client in run.clients + ([] if tag == "service" else [cbl.NOOP]):
        _plot_spectrum(ax, spectra.get(client, {}), client)
    what = "service time" if tag == "service" else "latency"
    rounds = run.rounds_of(shape)
    ax.set_title(f"{shape}: {what}" + (f" beyond the {delay_ms} ms delay" if delay_ms else "")
                 + (f",\nestimated over {rounds} rounds" if rounds > 1 else ",\nestimated over its windows"))


def spectra(run: cbl.Run, shapes: list):
    cols = min(3, len(shapes))
    rows = math.ceil(len(shapes) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.8 * cols, 3.0 * rows), squeeze=False)
    for ax, shape in zip(axes.flat, shapes):
        spectra_panel(ax, run, shape)
    for ax in axes.flat[len(shapes):]:
        ax.set_visible(False)
    _legend_outside(fig, axes)
    fig.set_label(f"latency spectra per client, rounds merged: {', '.join(shapes)}")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- capacity

def knee_search(run: cbl.Run, v: dict, shape: str):
    """Per client: every probe (rate against latency p99; a marker per round, filled where the SLO was kept,
    hollow where not, brown-edged where a flag failed it), each round's knee dotted, the SLO line, and the
    verdict's interval shaded where the knee is ranked."""
    pr = cbl.probes(run)
    pr = pr[pr["shape"] == shape]
    forks = cbl.forks(run)
    forks = forks[forks["shape"] == shape]
    ranked = figure(v, shape, "knee")
    clients = [c for c in run.clients if c in set(pr["client"])]
    slo_us = 1000 * (run.slo["latencyP99Millis"] + float(run.shape_params(shape).get("delayMs") or 0))
    cols = min(4, max(1, len(clients)))
    rows = math.ceil(len(clients) / cols) or 1
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.8 * rows), sharex=True, sharey=True, squeeze=False)
    for ax, client in zip(axes.flat, clients):
        colour = style(client)["color"]
        for rnd, g in pr[pr["client"] == client].groupby("round"):
            marker = _marker(rnd)
            ax.plot(g["rate"], g["p99"], color=colour, linewidth=0.6, alpha=0.6)
            for _, p in g.iterrows():
                flagged = p["why"].startswith("flagged")
                ax.plot(p["rate"], p["p99"], marker=marker, markersize=6, linestyle="none",
                        color=FLAGGED if flagged else colour, markerfacecolor=colour if p["pass"] else "white",
                        label=f"round {rnd}: " + ("kept" if p["pass"] else "missed, flagged" if flagged else "missed"))
        for knee in forks[(forks["client"] == client) & (forks["knee"] > 0)]["knee"]:
            ax.axvline(knee, color=colour, linestyle=":", linewidth=1, label="a round's knee")
        c = ranked["clients"].get(client) if ranked else None
        if c and c["low"] and c["high"]:
            ax.axvspan(c["low"], c["high"], color=colour, alpha=0.15, label="knee's 95% interval")
        ax.axhline(slo_us, color="black", linewidth=0.8, linestyle="-.", label="SLO: latency p99")
        ax.set_title(f"{client}: knee {cbd.fmt(c['value'], 'req/s')} {c['letters']}" if c else
                     f"{client}: knee not ranked")
        ax.set(xscale="log", yscale="log")
        _unit_axis(ax, "us")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    for ax in axes.flat[len(clients):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("offered rate (req/s)")
    _legend_outside(fig, axes)
    fig.suptitle(f"{shape}: the knee search, probe by probe, round by round", x=0.0, ha="left")
    fig.set_label(f"{shape}: each client's knee search, probe rate against latency p99, with the SLO line")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- failures and long-lived requests

FAILURE_KINDS = cbl.FAILURE_CLASSES + ["unsent", "expired"]


def failing_shapes(run: cbl.Run) -> list:
    """The shapes where a measured request failed, went unsent or expired; a knee search's are its probes past the
    knee, failing by design, and stay in the knee search."""
    return [s for s in run.shapes if cbl.kind(run, s) != "capacity"
            and any(cbl.failures_by_class(run, s, c)[k] for c in run.clients for k in FAILURE_KINDS)]


def failures(run: cbl.Run, shapes: list):
    """Per shape and client, the measured requests that did not end ok, by class, with the unsent and the
    expired (still out at the drain deadline): a bar per client, the names read across, one panel per shape."""
    hatches = ["", "//", "\\\\", "xx", "..", "oo", "--", "++"]
    clients = [c for c in run.clients if any(run.trials_of(s, c) for s in shapes)]
    fig, axes = plt.subplots(1, len(shapes), figsize=(3.4 * len(shapes) + 1, 0.8 + 0.22 * len(clients)), sharey=True,
                             squeeze=False)
    for ax, shape in zip(axes[0], shapes):
        counts = {c: cbl.failures_by_class(run, shape, c) for c in clients}
        left = np.zeros(len(clients))
        for kind, hatch in zip(FAILURE_KINDS, hatches):
            v = np.array([counts[c][kind] for c in clients], dtype=float)
            if v.sum() > 0:
                ax.barh(range(len(clients)), v, left=left, label=kind, hatch=hatch, color="white", edgecolor="#333333")
                left += v
        ax.set_yticks(range(len(clients)), clients)
        ax.invert_yaxis()
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(4, integer=True))
        ax.set(title=f"{shape}\n(of {sum(counts[c]['sent'] for c in clients):,} sent)", xlabel="requests")
    _legend_outside(fig, axes)
    fig.set_label("requests that failed, by class, went unsent or expired, per shape and client")
    fig.tight_layout()
    return fig


def long_lived(run: cbl.Run):
    """Per long-lived shape: requests held of those asked, heap and threads per request in flight."""
    ll = cbl.long_lived(run)
    fig, axes = plt.subplots(1, 3, figsize=(11, 2.8))
    for _, r in ll.iterrows():
        where = f"{r['client']}\n{r['shape']}"
        for ax, col in zip(axes, ["held", "heap/req", "threads/req"]):
            ax.bar(where, r[col], color=style(r["client"])["color"], hatch="//" if r["client"].endswith("-vt") else "")
        axes[0].plot(where, r["asked"], marker="_", color="black", markersize=20, linestyle="none", label="asked")
    for ax, title in zip(axes, ["requests held when the window closed", "heap bytes per request in flight",
                                "threads per request in flight"]):
        ax.set_title(title)
    _legend_outside(fig, axes)
    fig.set_label("long-lived requests: held of those asked, heap and threads per request in flight")
    fig.tight_layout()
    return fig

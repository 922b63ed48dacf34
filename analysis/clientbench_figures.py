"""The report's figures, drawn from a clientbench_analysis.Run; the notebook only calls these.

One hue per client family from Paul Tol's colour-blind-safe 'muted' scheme; a -vt variant (the blocking
API on virtual threads) takes its base client's hue, dashed; noop (the harness alone) is grey and dotted.
Legends sit outside the axes; a flagged run carries its flags in its legend label. PNGs are embedded at a
modest resolution and reduced to a small palette, so that a report of a dozen figures stays well under 1 MB.
"""
from __future__ import annotations

import io
import math
import textwrap

import matplotlib

matplotlib.use("Agg")  # files and inline images only; no window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import clientbench_analysis as cba
import clientbench_decision as cbd  # noqa: E402

BASE_COLOURS = {"ahc": "#CC6677", "apache": "#332288", "jetty": "#DDCC77", "okhttp": "#117733", "jdk": "#88CCEE",
                "reactor": "#882255", "vertx": "#44AA99", "helidon": "#999933"}
EXTRA_COLOURS = ["#AA4499", "#000000", "#6699CC", "#EE7733"]  # clients beyond the eight families
NOOP_COLOUR = "#888888"
FLAGGED_EDGE = "#8a5a00"  # what a validity flag touched: a probe it failed, a note under a figure
DPI = 80
PERCENTILE_TICKS = ([2, 10, 100, 1000, 10000, 1e5], ["50", "90", "99", "99.9", "99.99", "max"])

plt.rcParams.update({"font.size": 9, "axes.titlesize": 9, "axes.spines.top": False, "axes.spines.right": False,
                     "legend.fontsize": 8, "legend.frameon": False})


def style(client: str) -> dict:
    """Colour and line style: -vt variants in their base client's hue, dashed; noop grey, dotted."""
    if client == cba.NOOP:
        return {"color": NOOP_COLOUR, "linestyle": ":"}
    base = client.removesuffix("-vt")
    colour = BASE_COLOURS.get(base) or EXTRA_COLOURS[sum(map(ord, base)) % len(EXTRA_COLOURS)]
    return {"color": colour, "linestyle": "--" if client.endswith("-vt") else "-"}


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


def show(fig):
    """Embeds the figure in the notebook's output (and so in the report) as a small PNG, its label
    (set by each function here) as the image's alternative text."""
    import base64
    import html

    from IPython.display import HTML, display

    alt = html.escape(fig.get_label() or "figure", quote=True)
    data = base64.b64encode(png(fig)).decode("ascii")
    display(HTML(f'<img alt="{alt}" src="data:image/png;base64,{data}">'))


def _legend_outside(fig, axes):
    handles, labels = {}, []
    for ax in np.ravel(axes):
        for h, label in zip(*ax.get_legend_handles_labels()):
            if label not in handles:
                handles[label] = h
                labels.append(label)
    if labels:
        fig.legend([handles[label] for label in labels], labels, loc="upper left", bbox_to_anchor=(1.0, 0.95))


def _flag_note(ax, flagged: dict):
    """Under the axes (below its x label): which clients' figures here are flagged, and by what, clients
    with the same flags together (a flagged figure never counts against a client)."""
    by_flags: dict = {}
    for client, flags in flagged.items():
        if flags:
            by_flags.setdefault(cbd.flag_words(flags), []).append(client)
    if by_flags:
        words = "; ".join(f"{f} ({', '.join(cs)})" for f, cs in by_flags.items())
        _note_below(ax, "flagged: " + words)


def _note_below(ax, text: str):
    """A small note under the axes' x label (under the axes when it has none): call it after the label."""
    anchor = ax.xaxis.label if ax.get_xlabel() else ax
    ax.annotate(textwrap.fill(text, 75), xy=(0, 0), xycoords=anchor, xytext=(0, -3 if ax.get_xlabel() else -18),
                textcoords="offset points", fontsize=7, va="top", color=FLAGGED_EDGE)


def _percentile_axis(ax, ylabel: str):
    ax.set(xscale="log", yscale="log", xlabel="percentile", ylabel=ylabel)
    ax.set_xticks(*PERCENTILE_TICKS)
    ax.minorticks_off()


def _plot_spectrum(ax, h, label, client, shift_us: float = 0.0):
    s = cba.spectrum(h)
    if s.empty:
        return
    x = [1 / (1 - p / 100) if p < 100 else 1e5 for p in s["percentile"]]
    # noop never reaches the server: its latency has no delay in it to take off.
    shift_us = 0.0 if client == cba.NOOP else shift_us
    y = np.maximum(s["us"].to_numpy(dtype=float) - shift_us, 1.0) / 1000
    ax.plot(x, y, marker=".", label=label, **style(client))


def _ms_axis(ax):
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))


# ---------------------------------------------------------------- capacity

def knee_search(run: cba.Run, shape: str):
    """Per client: every probe of the search (rate vs latency p99, fork by marker, pass filled, fail hollow
    with the flag that failed it), the SLO line, the knee's interval shaded and noop's p99 at each rate."""
    pr = cba.probes(run)
    pr = pr[pr["shape"] == shape]
    k = cba.knees(run)
    k = k[k["shape"] == shape].set_index("client")
    clients = [c for c in run.clients if c in k.index]
    delay_ms = float(run.shape_params(shape).get("delayMs", 0) or 0)
    slo_ms = run.slo["latencyP99Millis"] + delay_ms
    cols = min(4, max(1, len(clients)))
    rows = math.ceil(len(clients) / cols) or 1
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 3.0 * rows), sharex=True, sharey=True, squeeze=False)
    mine = pr[pr["client"] != cba.NOOP]
    lo_x, hi_x = (mine["rate"].min() / 2, mine["rate"].max() * 2) if not mine.empty else (100, 100_000)
    noop = pr[(pr["client"] == cba.NOOP) & pr["rate"].between(lo_x, hi_x)].groupby("rate")["p99"].median()
    for ax, client in zip(axes.flat, clients):
        c = style(client)["color"]
        g = pr[pr["client"] == client]
        for fork, fg in g.groupby("fork"):
            marker = "os^D"[fork % 4]
            ax.plot(fg["rate"], fg["p99"] / 1000, color=c, linewidth=0.6, alpha=0.6)
            for _, p in fg.iterrows():
                flagged = p["why"].startswith("flagged:")
                ax.plot(p["rate"], p["p99"] / 1000, marker=marker, markersize=6, linestyle="none",
                        color=FLAGGED_EDGE if flagged else c, markerfacecolor=c if p["pass"] else "white",
                        label=f"fork {fork}: " + ("pass" if p["pass"] else "fail, flagged" if flagged else "fail"))
        if not noop.empty:
            ax.plot(noop.index, noop / 1000, label="noop (harness) p99", **style(cba.NOOP))
        ax.axhline(slo_ms, color="black", linewidth=0.8, linestyle="-.", label=f"SLO: p99 {slo_ms:g} ms")
        r = k.loc[client]
        hi = r["high"] if math.isfinite(r["high"]) else hi_x
        ax.axvspan(max(r["low"], lo_x), min(hi, hi_x), color=c, alpha=0.15, label="knee's 95% interval")
        ax.set_title(f"{client}: knee {cbd.fmt_knee(r)}" + ("" if r["status"] == "converged" else f"\n{r['status']}"))
        ax.set(xscale="log", yscale="log", xlim=(lo_x, hi_x))
        _ms_axis(ax)
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    for ax in axes.flat[len(clients):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("offered rate (req/s)")
    for ax in axes[:, 0]:
        ax.set_ylabel("latency p99 (ms)")
    for ax, client in zip(axes.flat, clients):
        g = pr[pr["client"] == client]
        by_flag = g[g["why"].str.startswith("flagged:")]
        if not by_flag.empty:
            words = sorted({w.strip() for why in by_flag["why"] for w in why.split(":", 1)[1].split(",")})
            _note_below(ax, f"{len(by_flag)} of {len(g)} probes failed by a flag ({', '.join(words)})")
    _legend_outside(fig, axes)
    fig.suptitle(f"{shape}: the knee search, probe by probe", x=0.0, ha="left")
    fig.set_label(f"{shape}: each client's knee search, probe rate against latency p99, with the SLO line")
    fig.tight_layout()
    return fig


def common_rate_spectra(run: cba.Run, shape: str, rates: list):
    """Latency from the intended start at the (up to three highest) common rates: every client's probes
    there, merged over forks."""
    rates = rates[-3:]
    fig, axes = plt.subplots(1, len(rates), figsize=(4.2 * len(rates), 3.2), sharey=True, squeeze=False)
    for ax, rate in zip(axes[0], rates):
        table = cba.at_rate(run, shape, rate)
        for _, row in table.iterrows():
            _plot_spectrum(ax, cba.probe_histogram(run, shape, row["client"], rate), row["client"], row["client"])
        _percentile_axis(ax, "latency from the intended start (ms)")
        _ms_axis(ax)
        ax.set_title(f"{shape} at {cbd.fmt_rate(rate)} req/s")
        _flag_note(ax, dict(zip(table["client"], table["flags"])))
    _legend_outside(fig, axes)
    fig.set_label(f"{shape}: latency spectra per client at the common rates {', '.join(map(cbd.fmt_rate, rates))} req/s")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- fixed rates, closed loops, long-lived

def over_time(run: cba.Run, shapes: list):
    """Per shape, ok/s and latency p99 of every iteration in the order it ran (forks one after the other,
    split by a dotted line); warm-up iterations hollow on a grey band, so that settling is visible. noop
    is drawn where it ran at the same rate; a closed loop's noop runs unthrottled and would flatten the rest.
    With a server delay, the p99 is drawn beyond it (what the client and the harness added), and a fixed-rate
    shape's panel carries the SLO's latency bound, which that figure is held to."""
    it = cba.iterations(run)
    f = cba.fixed(run)
    fig, axes = plt.subplots(len(shapes), 2, figsize=(10, 3.2 * len(shapes)), squeeze=False)
    for (a_ok, a_lat), shape in zip(axes, shapes):
        g = it[it["shape"] == shape]
        rows = f[f["shape"] == shape]
        closed = bool((rows["model"] == "closed").all())
        if closed:
            g = g[g["client"] != cba.NOOP]
        delay_us = 1000 * int(rows["delayMs"].iloc[0]) if not rows.empty else 0
        for client, cg in g.groupby("client", sort=False):
            st = style(client)
            for ax, col, shift, scale in ((a_ok, "ok/s", 0, 1), (a_lat, "p99", delay_us, 1000)):
                ax.plot(cg["seq"], (cg[col] - shift) / scale, label=client, linewidth=1.4, **st)
                warm, meas = cg[~cg["measured"]], cg[cg["measured"]]
                ax.plot(warm["seq"], (warm[col] - shift) / scale, marker="o", markerfacecolor="white",
                        linestyle="none", color=st["color"])
                ax.plot(meas["seq"], (meas[col] - shift) / scale, marker="o", linestyle="none", color=st["color"])
            for _, first in cg[(cg["index"] == 0) & (cg["fork"] > 0)].iterrows():
                for ax in (a_ok, a_lat):
                    ax.axvline(first["seq"] - 0.5, color="#999999", linestyle=":", linewidth=0.8)
        for seq in set(g[~g["measured"]]["seq"]):
            for ax in (a_ok, a_lat):
                ax.axvspan(seq - 0.5, seq + 0.5, color="#eeeeee", zorder=0)
        metric = "service time" if (rows["latency.metric"] == "service").all() else "latency"
        a_ok.set(title=f"{shape}: ok/s per iteration", ylabel="ok/s")
        a_lat.set(title=f"{shape}: {metric} p99 per iteration" + (f"\nbeyond the {delay_us // 1000} ms delay"
                                                                   if delay_us else ""), ylabel="ms", yscale="log")
        if not closed:
            bound = run.slo["latencyP99Millis"]
            a_lat.axhline(bound, color="#cc0000", linestyle="--", linewidth=0.9, zorder=1)
            a_lat.annotate(f"SLO {bound:g} ms", (1, bound), xycoords=("axes fraction", "data"), xytext=(-2, 2),
                           textcoords="offset points", ha="right", va="bottom", fontsize=7, color="#cc0000")
        _ms_axis(a_lat)
        for ax in (a_ok, a_lat):
            ax.set_xlabel("iteration (grey: warm-up; dotted: next fork)")
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        _flag_note(a_ok, dict(zip(rows["client"], rows["flags"])))
    _legend_outside(fig, axes)
    fig.set_label("ok/s and p99 of every iteration, warm-up included, per shape and client")
    fig.tight_layout()
    return fig


def fixed_spectra(run: cba.Run, shapes: list):
    """The spectrum of each fixed-rate shape, merged over its measured iterations and forks; with a server
    delay, latency minus that delay (what the client and the harness added)."""
    f = cba.fixed(run)
    cols = min(3, len(shapes))
    rows = math.ceil(len(shapes) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False)
    for ax, shape in zip(axes.flat, shapes):
        g = f[f["shape"] == shape]
        delay = int(g["delayMs"].iloc[0])
        tag = g["latency.metric"].iloc[0]
        for _, r in g.iterrows():
            _plot_spectrum(ax, cba.shape_histogram(run, shape, r["client"], tag), r["client"], r["client"],
                           shift_us=delay * 1000)
        _percentile_axis(ax, f"{tag} beyond the {delay} ms delay (ms)" if delay else f"{tag} (ms)")
        _ms_axis(ax)
        ax.set_title(shape)
        _flag_note(ax, dict(zip(g["client"], g["flags"])))
    for ax in axes.flat[len(shapes):]:
        ax.set_visible(False)
    _legend_outside(fig, axes)
    fig.set_label("latency spectra of the fixed-rate shapes, the server's delay taken off")
    fig.tight_layout()
    return fig


def failures(run: cba.Run, shapes: list):
    """Per shape and client, the measured requests that did not end ok, by class, with the unsent and the
    expired (still out at the drain deadline)."""
    kinds = cba.FAILURE_CLASSES + ["unsent", "expired"]
    hatches = ["", "//", "\\\\", "xx", "..", "oo", "--", "++"]
    fig, axes = plt.subplots(1, len(shapes), figsize=(3.2 * len(shapes), 3.0), squeeze=False)
    for ax, shape in zip(axes[0], shapes):
        clients = [c for c in run.clients if run.trials_of(shape, c)]
        counts = {c: cba.failures_by_class(run, shape, c) for c in clients}
        bottom = np.zeros(len(clients))
        for kind, hatch in zip(kinds, hatches):
            v = np.array([counts[c][kind] for c in clients], dtype=float)
            if v.sum() > 0:
                ax.bar(clients, v, bottom=bottom, label=kind, hatch=hatch, color="white", edgecolor="#333333")
                bottom += v
        ax.set(title=f"{shape} (of {sum(counts[c]['sent'] for c in clients)} sent)", ylabel="requests")
        ax.tick_params(axis="x", labelrotation=30)
    _legend_outside(fig, axes)
    fig.set_label("requests that failed, by class, went unsent or expired, per shape and client")
    fig.tight_layout()
    return fig


def closed_loops(run: cba.Run, shapes: list):
    """Per closed-loop shape: ok/s with its 95% interval where the client is ranked (the verdict's:
    clientbench_decision.window_interval), the measured windows' range where it is not, and the service-time
    spectrum."""
    f = cba.fixed(run)
    it = cba.iterations(run)
    fig, axes = plt.subplots(len(shapes), 2, figsize=(10, 3.3 * len(shapes)), squeeze=False)
    for (a_ok, a_sp), shape in zip(axes, shapes):
        g = f[(f["shape"] == shape) & (f["client"] != cba.NOOP)]
        intervals = cbd.rank_closed(run, shape).intervals
        for i, (_, r) in enumerate(g.iterrows()):
            m = it[(it["shape"] == shape) & (it["client"] == r["client"]) & it["measured"]]["ok/s"]
            st = style(r["client"])
            a_ok.bar(i, r["ok"], color=st["color"], hatch="//" if r["client"].endswith("-vt") else "", label=r["client"])
            if r["client"] in intervals:
                a_ok.plot([i, i], list(intervals[r["client"]][1:]), color="black", linewidth=1.2)
            else:
                a_ok.plot([i, i], [m.min(), m.max()], color="grey", linewidth=1.2, linestyle=":")
            _plot_spectrum(a_sp, cba.shape_histogram(run, shape, r["client"], "service"), r["client"], r["client"])
        a_ok.set_xticks(range(len(g)), g["client"], rotation=30)
        a_ok.set(title=f"{shape}: ok/s (line: 95% interval; dotted: windows' range, not ranked)", ylabel="ok/s")
        _percentile_axis(a_sp, "service time (ms)")
        _ms_axis(a_sp)
        a_sp.set_title(f"{shape}: service time (no intended start in a closed loop)")
        _flag_note(a_sp, dict(zip(g["client"], g["flags"])))
    _legend_outside(fig, axes)
    fig.set_label("closed loops: ok/s per client with its 95% interval (the windows' range where not ranked), and "
                  "service-time spectra")
    fig.tight_layout()
    return fig


def long_lived(run: cba.Run):
    """Per long-lived shape: requests held of those asked, heap and threads per request in flight."""
    ll = cba.long_lived(run)
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.0))
    for _, r in ll.iterrows():
        st = style(r["client"])
        where = f"{r['client']}\n{r['shape']}"
        for ax, col in zip(axes, ["held", "heap/req", "threads/req"]):
            ax.bar(where, r[col], color=st["color"], hatch="//" if r["client"].endswith("-vt") else "", label=r["client"])
        axes[0].plot(where, r["asked"], marker="_", color="black", markersize=20, linestyle="none", label="asked")
    for ax, title in zip(axes, ["requests held when the window closed", "heap bytes per request in flight",
                                "threads per request in flight"]):
        ax.set_title(title)
    _legend_outside(fig, axes)
    fig.set_label("long-lived requests: held of those asked, heap and threads per request in flight")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- the main figure

def main_figure(run: cba.Run):
    """The README's and the report's headline: each client's knee per capacity shape with its interval
    (hollow: not ranked), and the latency spectrum at the highest common rate of the first shape."""
    caps = cba.capacity_shapes(run)
    k = cba.knees(run)
    fig, (a_k, a_s) = plt.subplots(1, 2, figsize=(11, max(3.0, 0.9 + 0.4 * len(run.clients) * max(1, len(caps)))),
                                   gridspec_kw={"width_ratios": [1.2, 1]})
    # An interval may reach past the highest rate probed (a wide spread): it is cut there, as nothing beyond it
    # was measured; one open above (no rate failed) runs to the edge, an arrow at its end.
    probed = cba.probes(run)
    probed = probed[probed["shape"].isin(caps)]["rate"]
    right = 1.05 * probed.max() if not probed.empty else None
    labels, y = [], 0
    for shape in caps:
        in_ranking = {c for g in cbd.rank_capacity(run, shape).groups for c in g}
        for client in run.clients:
            r = k[(k["shape"] == shape) & (k["client"] == client)]
            if r.empty:
                continue
            r = r.iloc[0]
            st = style(client)
            ranked = client in in_ranking
            hi = r["high"] if math.isfinite(r["high"]) or right is None else right
            a_k.plot([r["low"], hi], [y, y], color=st["color"], linewidth=5, alpha=0.5 if ranked else 0.25,
                     solid_capstyle="butt")
            if not math.isfinite(r["high"]):
                a_k.plot(hi, y, marker=">", markersize=7, color=st["color"], alpha=0.5 if ranked else 0.25,
                         linestyle="none", clip_on=False)
            a_k.plot(r["median"], y, marker="o", markersize=7, color=st["color"],
                     markerfacecolor=st["color"] if ranked else "white", linestyle="none")
            labels.append(f"{client} ({shape})" if len(caps) > 1 else client)
            if r["status"] != "converged":
                # beside the bar's end, or (an open bar ends at the edge) above the median
                a_k.annotate(r["status"], (hi, y) if math.isfinite(r["high"]) else (r["median"], y),
                             xytext=(4, -3) if math.isfinite(r["high"]) else (4, 5), textcoords="offset points",
                             fontsize=7)
            y += 1
    a_k.set_yticks(range(len(labels)), labels)
    a_k.invert_yaxis()
    a_k.set(xlabel="knee (req/s): median over forks, bar: its 95% interval over JVM starts",
            title="the highest rate each client keeps within the SLO" + (f" ({caps[0]})" if len(caps) == 1 else ""))
    a_k.set_xlim(0, right)
    rates = cba.common_rates(run, caps[0]) if caps else []
    if rates:
        for _, row in cba.at_rate(run, caps[0], rates[-1]).iterrows():
            _plot_spectrum(a_s, cba.probe_histogram(run, caps[0], row["client"], rates[-1]), row["client"], row["client"])
        _percentile_axis(a_s, "latency from the intended start (ms)")
        _ms_axis(a_s)
        a_s.set_title(f"latency at {cbd.fmt_rate(rates[-1])} req/s, below every client's knee")
        a_s.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    else:
        a_s.axis("off")
        a_s.text(0, 0.5, "no common rate: the weakest knee is below every rung of\nthe ladder, so no latency "
                 "spectrum compares like with like", fontsize=9, va="center")
    fig.set_label("each client's knee with its interval" + (f", and latency at {cbd.fmt_rate(rates[-1])} req/s"
                                                            if rates else ""))
    fig.tight_layout()
    return fig

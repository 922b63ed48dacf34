"""The report opened in a real browser: Debian's Chromium, headless, at 1400x900 as a team lead's laptop shows it.

The first screen holds the verdict, the load and the decision table, every client's row with its SLO and failed
requests; the page logs no console error; no chart's texts overlap, read from matplotlib's own layout of each chart
(the data-texts analysis.report.figures.show writes beside it), never from pixels. Chromium is installed with apt-get
when missing; where it cannot be, the tests skip with why, and fail under CI=true (conftest.require).
"""
import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from analysis.conftest import HERE, require

from analysis.report import figures as figs  # noqa: E402
from analysis import load as cbl  # noqa: E402
from analysis.report import render as render  # noqa: E402

ROOT = HERE.parent
SCREEN = {"width": 1400, "height": 900}
# As the machine's notes give them: no sandbox as root, and nothing that reaches out of the closed network.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    """Debian's Chromium, installed with apt-get (as root) when missing."""
    found = shutil.which("chromium")
    if found or not shutil.which("apt-get") or os.geteuid() != 0:
        return found
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        subprocess.run(cmd, capture_output=True, env=env, timeout=900, check=False)
    return shutil.which("chromium")


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        path = None
    require(bool(path), "no Chromium (apt-get install chromium) or no playwright (requirements.lock) to open the report with")
    with sync_playwright() as p:
        # Playwright starts it with a fresh temporary --user-data-dir of its own.
        b = p.chromium.launch(executable_path=path, headless=True, args=FLAGS)
        yield b
        b.close()


def opened(browser, html_file: Path):
    """(page, console errors) of a file at 1400x900, loaded whole."""
    page = browser.new_page(viewport=SCREEN)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html_file.resolve().as_uri(), wait_until="load")
    return page, errors


FIRST_SCREEN = """() => {
  const box = e => e ? e.getBoundingClientRect().toJSON() : null;
  const table = document.querySelector("table.decision");
  return {
    verdict: box(document.querySelector("ol.verdict")), load: box(document.querySelector("p.load")),
    table: box(table), pageWidth: document.documentElement.scrollWidth,
    header: table ? [...table.querySelectorAll("thead th")].map(th => th.textContent.trim()) : [],
    rows: table ? [...table.querySelectorAll("tbody tr")].map(tr => ({
      box: box(tr), cells: [...tr.children].map(td => td.textContent.trim())})) : []};
}"""


def first_screen_problems(facts: dict, clients: list) -> list:
    """What keeps the first screen from holding the verdict, the load and the whole decision table."""
    problems = []
    for name in ("verdict", "load", "table"):
        box = facts[name]
        if box is None:
            problems.append(f"no {name} on the page")
        elif box["bottom"] > SCREEN["height"] or box["right"] > SCREEN["width"]:
            problems.append(f"the {name} ends at {box['right']:.0f}x{box['bottom']:.0f}, beyond the first screen")
    if facts["pageWidth"] > SCREEN["width"]:
        problems.append(f"the page is {facts['pageWidth']} px wide: it scrolls sideways")
    header = facts["header"]
    for wanted in ("CPU/req", "p99", "SLO @", "failed @"):
        if not any(h.startswith(wanted) for h in header):
            problems.append(f"no column {wanted}... in {header}")
    shown = [r["cells"][0] for r in facts["rows"] if r["box"]["bottom"] <= SCREEN["height"]]
    if shown != clients:
        problems.append(f"rows on the first screen {shown}, not every client {clients}")
    problems += [f"{r['cells'][0]}: {len(r['cells'])} cells for {len(header)} columns" for r in facts["rows"]
                 if len(r["cells"]) != len(header)]
    return problems


def corners(text: list) -> list:
    """A text's rectangle as drawn, its four corners in image pixels (y down), half a pixel in from each side: the
    upright box is its bounding box; a slanted one is its unturned size turned about the same centre."""
    x0, y0, x1, y1, _, angle, w, h = text
    cx, cy, a = (x0 + x1) / 2, (y0 + y1) / 2, math.radians(-angle)
    ux, uy = math.cos(a), math.sin(a)
    hw, hh = max(w / 2 - 0.5, 0), max(h / 2 - 0.5, 0)
    return [(cx + sx * hw * ux - sy * hh * uy, cy + sx * hw * uy + sy * hh * ux)
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def overlap(p: list, q: list) -> bool:
    """Two convex quadrilaterals overlap unless an edge's normal separates them (the separating axis theorem)."""
    for poly in (p, q):
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
            nx, ny = y2 - y1, x1 - x2
            a, b = [nx * x + ny * y for x, y in p], [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) or max(b) <= min(a):
                return False
    return True


def chart_problems(page) -> list:
    """Texts that overlap (by more than a pixel) or leave their chart, for every chart with its layout; and a chart
    whose PNG is not the size its layout says."""
    charts = page.evaluate("""() => [...document.querySelectorAll("img[data-texts]")].map(i => ({
        alt: i.alt, texts: i.dataset.texts, width: i.naturalWidth, height: i.naturalHeight}))""")
    problems = [] if charts else ["no chart carries its layout (data-texts)"]
    for c in charts:
        layout = json.loads(c["texts"])
        if abs(layout["width"] - c["width"]) > 2 or abs(layout["height"] - c["height"]) > 2:
            problems.append(f"{c['alt']}: {c['width']}x{c['height']} px, its layout says "
                            f"{layout['width']}x{layout['height']}")
        texts = layout["texts"]
        for i, a in enumerate(texts):
            if a[0] < -1 or a[1] < -1 or a[2] > layout["width"] + 1 or a[3] > layout["height"] + 1:
                problems.append(f"{c['alt']}: '{a[4]}' leaves the chart")
            problems += [f"{c['alt']}: '{a[4]}' overlaps '{b[4]}'" for b in texts[i + 1:]
                         if overlap(corners(a), corners(b))]
    return problems


def reference_run() -> Path:
    """README's reference run: the one its terminal block names (results/ holds other runs beside it)."""
    names = re.findall(r"`(\d{8}-\d{6}-[\w.-]+)`", render.current_block(ROOT / "README.md", "terminal"))
    runs = [ROOT / "results" / n for n in names if list((ROOT / "results" / n).glob("*.trial.json*"))]
    require(bool(runs), "no committed reference run under results/ that README names (a fresh clone has one: git"
            " checkout -- results/)")
    return runs[0]


@pytest.fixture(scope="module")
def reference_report(tmp_path_factory):
    """The committed reference run (twelve clients) rendered by the code as it is now."""
    run = reference_run()
    out = tmp_path_factory.mktemp("reference") / "report.html"
    render.render([run], out)
    return run, out


def test_the_reference_runs_first_screen_holds_the_verdict_and_every_clients_row(browser, reference_report, tmp_path):
    run, report = reference_report
    page, errors = opened(browser, report)
    shot = tmp_path / "first-screen-1400x900.png"
    page.screenshot(path=str(shot))
    if os.environ.get("CLIENTBENCH_SHOTS"):
        shutil.copy(shot, Path(os.environ["CLIENTBENCH_SHOTS"]) / f"{run.name}-1400x900.png")
    clients = cbl.load_run(run).clients
    assert len(clients) == 12
    assert first_screen_problems(page.evaluate(FIRST_SCREEN), clients) == []
    assert errors == []


def test_no_chart_of_the_reference_report_has_texts_that_overlap(browser, reference_report):
    page, errors = opened(browser, reference_report[1])
    assert chart_problems(page) == [] and errors == []


def test_no_chart_of_the_fixtures_report_has_texts_that_overlap(browser, report_file, decided):
    page, errors = opened(browser, report_file)
    assert first_screen_problems(page.evaluate(FIRST_SCREEN), cbl.load_run(decided[0]).clients) == []
    assert chart_problems(page) == [] and errors == []


# ---------------------------------------------------------------- the checks can fail

def test_a_table_pushed_below_the_fold_is_caught(browser, report_file, decided, tmp_path):
    pushed = tmp_path / "pushed.html"
    pushed.write_text(report_file.read_text().replace('<table class="decision"',
                                                 '<div style="height: 600px"></div><table class="decision"', 1))
    page, _ = opened(browser, pushed)
    problems = first_screen_problems(page.evaluate(FIRST_SCREEN), cbl.load_run(decided[0]).clients)
    assert any("the table ends at" in p for p in problems) and any("rows on the first screen" in p for p in problems)


def test_a_chart_whose_tick_labels_overlap_is_caught(browser, tmp_path):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2.0, 1.5))
    ax.bar(range(12), range(12))
    ax.set_xticks(range(12), [f"client-{i}" for i in range(12)])  # twelve names, level, on two inches
    fig.set_label("crowded")
    layout = json.dumps(figs.text_boxes(fig)).replace('"', "&quot;")
    import base64
    page_file = tmp_path / "crowded.html"
    page_file.write_text(f'<!DOCTYPE html><html><body><img alt="crowded" data-texts="{layout}" '
                         f'src="data:image/png;base64,{base64.b64encode(figs.png(fig)).decode()}"></body></html>')
    page, errors = opened(browser, page_file)
    problems = chart_problems(page)
    assert any("crowded: 'client-0' overlaps 'client-1'" == p for p in problems), problems
    assert errors == []


def test_a_console_error_is_caught(browser, tmp_path):
    broken = tmp_path / "broken.html"
    broken.write_text('<!DOCTYPE html><html><body><img alt="gone" src="missing.png"></body></html>')
    _, errors = opened(browser, broken)
    assert errors, "a missing image logs an error in the console"

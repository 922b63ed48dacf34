"""The report and README's generated blocks, against the decided fixture (conftest.py). Expected words and numbers
come from summary.json's verdict read here with json, and from what `decide` printed, never from the code that
wrote the HTML."""
import base64
import dataclasses
import functools
import json
import re
import shutil
import sys
import types
from html.parser import HTMLParser
from pathlib import Path

import pytest

from analysis.conftest import FIXTURE, HERE, cli

sys.path.insert(0, str(HERE))
from analysis.decide import verdict as cbd  # noqa: E402
from analysis import load as cbl  # noqa: E402
from analysis.report import render as render  # noqa: E402
from analysis.report import tables as tables  # noqa: E402
from analysis.decide import upgrade as cbu  # noqa: E402

ROOT = HERE.parent


def verdict_of(run: Path) -> dict:
    return json.loads((run / "summary.json").read_text())["verdict"]


def columns(v: dict) -> list:
    """The verdict's figures in the decision table: the columns analysis.decide.verdict chose for the terminal too."""
    figures = {(s["shape"], f["figure"]): f for s in v["shapes"] for f in s["figures"]}
    return [figures[c] for c in cbd.columns(v)]


def cell_text(f: dict, client: str) -> str:
    """A cell as the verdict says it: a star only for a mark that not every ranked client carries."""
    c = f["clients"].get(client)
    everyone = set.intersection(*(set(x["marks"]) for x in f["clients"].values()))
    return f"{cbd.bare(c['value'], f['unit'])}{'*' if set(c['marks']) - everyone else ''} {c['letters']}" if c else "-"


def terminal_table(printed: str) -> list:
    """The decision table as `decide` printed it: its rows, each split into cells at two spaces or more."""
    lines = printed.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("client  "))
    end = lines.index("", start)
    return [re.split(r" {2,}", line.strip()) for line in lines[start:end]]


class Page(HTMLParser):
    """The text before the first image, the decision table's rows (lists of cell texts) and the intervals shown under
    its cells (per row, the cell's index and text)."""

    def __init__(self):
        super().__init__()
        self.text, self.rows, self.intervals, self.in_table, self.done, self.cell = [], [], [], False, False, None
        self.interval = None

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.done = True
        if tag == "table" and ("class", "decision") in attrs:
            self.in_table = True
        if self.in_table and tag == "tr":
            self.rows.append([])
            self.intervals.append({})
        if self.in_table and tag in ("td", "th"):
            self.cell = []
        if self.cell is not None and tag == "span" and ("class", "ci") in attrs:
            self.interval = []

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_table = False
        if self.interval is not None and tag == "span":
            self.intervals[-1][len(self.rows[-1])] = "".join(self.interval)
            self.interval = None
        if self.in_table and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if not self.done:
            self.text.append(data)
        if self.interval is not None:
            self.interval.append(data)
        elif self.cell is not None:
            self.cell.append(data)


def first_screen(html_text: str) -> Page:
    p = Page()
    p.feed(html_text)
    return p


def terminal_columns_in(report_rows: list, printed_rows: list) -> list:
    """The report's table cut to the columns the terminal printed (it drops what does not fit its width)."""
    header = report_rows[0]
    assert all(name in header for name in printed_rows[0]), (printed_rows[0], header)
    keep = [header.index(name) for name in printed_rows[0]]
    cut = [[row[i] if i < len(row) else "" for i in keep] for row in report_rows]
    return [row[:max([i + 1 for i, x in enumerate(row) if x], default=0)] for row in cut]  # the terminal's rstrip


@pytest.fixture(scope="module")
def report(report_file):
    return report_file.read_text()


# ---------------------------------------------------------------- the first screen

def test_the_first_screen_says_what_the_verdict_holds_for_in_at_most_six_lines(decided, report):
    v = verdict_of(decided[0])
    before = "".join(first_screen(report).text)
    hf = v["holdsFor"]
    assert f"{hf['cores']} cores of {hf['cpuModel']}, JDK {hf['jdk']}, profile {hf['profile']}" in before
    assert "not for decisions" in before  # the fixture is a first look
    lines = re.findall(r'<ol class="verdict">(.*?)</ol>', report, re.S)[0].count("<li>")
    assert 1 <= lines <= 5  # and the line above them


def test_each_told_apart_line_names_the_clients_told_apart_from_all_the_rest(decided, report):
    v = verdict_of(decided[0])
    items = re.findall(r"<li>(.*?)</li>", re.findall(r'<ol class="verdict">(.*?)</ol>', report, re.S)[0])
    names = first_screen(report).rows[0][1:]
    for name, f in zip(names, columns(v)):
        said = [x for x in items if x.startswith(name + ": ")]
        if f["pairs"]["separated"]:
            assert said, (name, items)
            text = said[0].split(": ", 1)[1]
            named = (text.split(", told apart")[0].split(" ", 1)[1].split(", ") if "told apart from all" in text
                     and not text.startswith("no client") else [])
            # each client named is told apart from every lettered client not named, by the figure's own pairs
            apart = {(p["better"], p["worse"]) for p in f["pairs"]["apart"]}
            rest = [c for c, x in f["clients"].items() if x["letters"] and c not in named]
            assert all((x, y) in apart for x in named for y in rest), (name, text, apart)
            assert named or text.startswith("no client told apart from all the rest"), text
            assert f"{f['pairs']['separated']} of {f['pairs']['of']} pair" in said[0]
        else:
            assert not said and any(name in x for x in items if x.startswith("Not told apart: "))


def test_the_table_is_the_terminals_with_a_row_per_client_and_a_cell_per_key_figure(decided, report):
    v = verdict_of(decided[0])
    rows = first_screen(report).rows
    printed = terminal_table(decided[1])
    assert terminal_columns_in(rows, printed) == printed  # the terminal's columns: the same names, cells, pairs apart
    assert printed[0][-2:] == rows[0][-2:] == ["SLO @4k", "failed @4k"]
    assert [r[0] for r in rows[1:-1]] == v["clients"] and "noop" not in [r[0] for r in rows]
    for row in rows[1:-1]:
        assert row[1:-2] == [cell_text(f, row[0]) for f in columns(v)]


def test_the_slo_and_the_failed_requests_at_the_runs_rate_are_the_runs_own(decided, tmp_path):
    run = tmp_path / "judged"
    shutil.copytree(decided[0], run)
    summary = json.loads((run / "summary.json").read_text())
    judged = {"jdk": {"kept": False, "missed": ["latencyP99Millis", "okShare"], "flags": ["gen"], "clients": True},
              "okhttp": {"kept": True, "missed": [], "flags": [], "clients": False},
              "vertx": {"kept": False, "missed": ["latencyP99Millis"], "flags": ["steal"], "clients": False}}
    for r in summary["runs"]:
        if r["shape"] == "rate-4000" and r["client"] in judged:
            r["slo"] = judged[r["client"]]
            r["failures"] = {"jdk": 12.0, "okhttp": 0.0, "vertx": 30.0}[r["client"]]
            r["unsent"] = {"jdk": 0.0, "okhttp": 0.0, "vertx": 40.0}[r["client"]]
    (run / "summary.json").write_text(json.dumps(summary))
    sent = {r["client"]: r["sent"] for r in summary["runs"] if r["shape"] == "rate-4000"}
    rows = {r[0]: r[-2:] for r in first_screen(tables.first_screen_html(cbl.load_run(run), verdict_of(run))).rows[1:-1]}
    assert rows["jdk"] == ["missed p99, ok share", f"12 ({12 / sent['jdk']:.1%})"]
    assert rows["okhttp"] == ["kept", "0"]
    assert rows["vertx"] == ["not judged", f"30 ({30 / sent['vertx']:.1%}) +40 unsent"]
    printed = cbd.terminal_verdict(cbl.load_run(run), verdict_of(run))
    assert "; missed p99, ok share: jdk; not judged: vertx" in printed.replace("\n", " ")


def test_a_run_that_recorded_only_whether_it_kept_the_slo_says_that(decided, report):
    summary = json.loads((decided[0] / "summary.json").read_text())
    kept = {r["client"]: r["sustained"] for r in summary["runs"] if r["shape"] == "rate-4000" and "slo" not in r
            and r["client"] != "noop"}
    rows = {r[0]: r[-2] for r in first_screen(report).rows[1:-1]}
    assert kept and all(rows[c] == ("kept" if k else "not kept") for c, k in kept.items())


def test_the_table_comes_before_any_figure_and_a_figure_follows_it(report):
    assert report.index('<table class="decision"') < report.index("<img") < report.index("<h2")


def test_a_shape_that_ranked_nothing_is_said_once(decided, report):
    v = verdict_of(decided[0])
    assert "capacity-http1" not in {s["shape"] for s in v["shapes"]}  # every search of the busy fixture kept no rate
    assert "Nothing ranked at capacity-http1: see below." in "".join(first_screen(report).text)


def test_a_column_the_same_for_every_client_becomes_a_sentence(decided, tmp_path):
    run = tmp_path / "same"
    shutil.copytree(decided[0], run)
    summary = json.loads((run / "summary.json").read_text())
    p99 = next(f for s in summary["verdict"]["shapes"] if s["shape"] == "rate-4000"
               for f in s["figures"] if f["figure"] == "p99")
    for c in p99["clients"].values():
        c.update(value=2000.0, letters="a", marks=[])
    (run / "summary.json").write_text(json.dumps(summary))
    v = verdict_of(run)
    html_text = tables.first_screen_html(cbl.load_run(run), v)
    header = first_screen(html_text).rows[0]
    assert "p99 @4k" not in header and "p99 @4k" in first_screen(tables.first_screen_html(cbl.load_run(decided[0]),
                                                                                       verdict_of(decided[0]))).rows[0]
    assert f"latency p99 at rate-4000: {cbd.bare(2000.0, 'us')} a for every client." in html_text


def test_each_cell_shows_its_interval_under_it_and_its_rounds_and_marks_on_hover(decided, report):
    v = verdict_of(decided[0])
    f = columns(v)[1]
    assert f["figure"] == "alloc"  # bytes: the interval in KiB, worked out here
    page = first_screen(report)
    for row, shown in zip(page.rows[1:-1], page.intervals[1:-1]):
        c = f["clients"][row[0]]
        assert shown[2] == f"{c['low'] / 1024:.1f}KiB\u2013{c['high'] / 1024:.1f}KiB", (row[0], shown)
    client = next(iter(f["clients"]))
    c = f["clients"][client]
    titles = re.findall(r'<td title="([^"]*)">', report)
    want = f"95% interval {c['low'] / 1024:.1f}KiB\u2013{c['high'] / 1024:.1f}KiB, from {c['n']} rounds"
    assert any(t.startswith(want) and all(m in t for m in c["marks"]) for t in titles), titles[:8]


def test_figures_before_the_first_request_take_their_columns(decided, tmp_path):
    run = tmp_path / "startup"
    shutil.copytree(decided[0], run)
    for name in ("startup.json", "footprint.json"):
        shutil.copy(FIXTURE.parent / "startup-small" / name, run / name)
    r = cli("decide", run)
    assert r.returncode == 0, r.stderr
    rows = first_screen(tables.first_screen_html(cbl.load_run(run), verdict_of(run))).rows
    assert "cold start" in rows[0] and terminal_columns_in(rows, terminal_table(r.stdout)) == terminal_table(r.stdout)


# ---------------------------------------------------------------- the rest of the report

def test_the_report_has_no_code_and_is_self_contained_and_small(report):
    for code in ("cbd.", "figs.", "tables.", "import ", "display("):
        assert code not in report
    assert "<script" not in report and 'src="http' not in report and "<link" not in report
    assert len(report.encode()) < 600_000
    images = re.findall(r'<img alt="([^"]+)" [^>]*src="data:image/png;base64,([^"]+)"', report)
    assert len(images) >= 6 and all(base64.b64decode(b)[:4] == b"\x89PNG" for _, b in images)


def test_every_figure_of_every_shape_is_ranked_in_the_verdicts_words_and_how_to_read_it_ends(decided, report):
    import html

    v = verdict_of(decided[0])
    for s in v["shapes"]:
        for f in s["figures"]:
            assert html.escape(cbd.figure_words(f)) in report, (s["shape"], f["figure"])
    assert report.index('id="how-to-read-this"') > report.index("Where it ran")


def test_the_failures_table_counts_each_class_from_the_trials(decided, report):
    # delay6s-50: the delay is beyond the request timeout, so every request sent is a timeout.
    sent = sum(it["sent"] for p in decided[0].glob("*.trial.json") for t in [json.loads(p.read_text())]
               if t["shape"] == "delay6s-50" and t["client"] == "jdk" for it in t["iterations"] if it["measured"])
    for table in re.findall(r"<table.*?</table>", report, re.S):
        header = re.findall(r"<th>(.*?)</th>", table)
        rows = [re.findall(r"<td>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
        if "timeout" in header and "sent" in header:
            row = next(r for r in rows if r[:2] == ["delay6s-50", "jdk"])
            assert sent > 0 and row[header.index("sent")] == row[header.index("timeout")] == str(sent)
            return
    pytest.fail("no failures table")


def test_a_failed_run_is_listed_with_its_reason(decided, tmp_path):
    run = tmp_path / "failed"
    shutil.copytree(decided[0], run)
    env = json.loads((run / "env.json").read_text())
    env["failed"] = ["h2c-500/okhttp: the fork exited with 1"]
    (run / "env.json").write_text(json.dumps(env))
    assert "h2c-500/okhttp: the fork exited with 1" in tables.environment_html(cbl.load_run(run))


def test_two_runs_say_how_many_pairs_they_put_in_opposite_order(decided, tmp_path):
    b = tmp_path / "b"
    shutil.copytree(decided[0], b)
    out = tmp_path / "compare.html"
    render.render([decided[0], b], out)
    assert "run-small vs b: 0 pairs in opposite order" in out.read_text()


def test_two_runs_on_different_cpu_models_say_cpu_is_not_comparable(decided, tmp_path):
    b = tmp_path / "b"
    shutil.copytree(decided[0], b)
    assert "not comparable" not in cbd.compare_text(cbl.load_run(decided[0]), cbl.load_run(b))
    env = json.loads((b / "env.json").read_text())
    env["machine"]["cpuModel"] = "Another CPU"
    (b / "env.json").write_text(json.dumps(env))
    text = cbd.compare_text(cbl.load_run(decided[0]), cbl.load_run(b))
    assert "b on Another CPU: their CPU per request is not comparable" in text


def test_the_notebook_takes_its_runs_in_a_parameters_cell_first():
    nb = json.loads((ROOT / "analysis.ipynb").read_text())
    first = nb["cells"][0]
    assert first["cell_type"] == "code" and "parameters" in first["metadata"].get("tags", [])
    assert "RUNS = " in "".join(first["source"])


# ---------------------------------------------------------------- README's blocks

def blocks_readme(tmp_path, terminal=True) -> tuple:
    run = tmp_path / "results" / "run-small"
    shutil.copytree(FIXTURE, run)
    readme = tmp_path / "README.md"
    text = (f"# title\n\nbefore\n\n{render.begin('figure')}\nold figure\n{render.end('figure')}\n\nbetween\n\n"
            + (f"{render.begin('terminal')}\nold output\n{render.end('terminal')}\n" if terminal else "")
            + "\nafter\n")
    readme.write_text(text)
    return run, readme


def between(text: str, block: str) -> str:
    return text[text.index(render.begin(block)):text.index(render.end(block))]


def test_readme_blocks_are_replaced_and_nothing_else_is_touched(tmp_path):
    run, readme = blocks_readme(tmp_path)
    r = cli("readme", run, readme)
    assert r.returncode == 0, r.stderr
    text = readme.read_text()
    outside = re.sub(r"<!-- clientbench:(\w+) begin.*?<!-- clientbench:\1 end -->", "BLOCK", text, flags=re.S)
    assert outside == "# title\n\nbefore\n\nBLOCK\n\nbetween\n\nBLOCK\n\nafter\n"
    assert "old figure" not in text and "old output" not in text
    assert "(results/run-small/main.png)" in text and (run / "main.png").read_bytes()[:4] == b"\x89PNG"
    env = json.loads((run / "env.json").read_text())
    assert (f"`run-small` (fixture profile: {env['purpose']}): 3 clients on {env['machine']['cpuCount']} cores of "
            f"{env['machine']['cpuModel']}, JDK {env['launcherJdk']['version']}.") in between(text, "figure")
    assert cli("readme", run, readme).returncode == 0 and readme.read_text() == text  # the same run: the same blocks


def test_the_terminal_block_is_literally_what_decide_prints_through_its_table(tmp_path):
    run, readme = blocks_readme(tmp_path)
    assert cli("readme", run, readme).returncode == 0
    printed = cli("decide", run).stdout.splitlines()  # the verdict as the terminal shows it
    block = between(readme.read_text(), "terminal")
    shown = block.split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()
    table = terminal_table("\n".join(printed) + "\n")
    assert shown == printed[:len(shown)] and printed[len(shown)] == ""  # whole paragraphs, cut after the table's
    assert shown[-1].startswith("told apart") and re.split(r" {2,}", shown[-1].strip()) == table[-1]
    assert f"(its first {len(shown)} of {len(printed)} lines)" in block


def test_a_long_verdict_is_cut_after_a_whole_paragraph(decided):
    run = cbl.load_run(decided[0])
    printed = decided[1].splitlines()
    block = render.terminal_block(run, verdict_of(decided[0]), max_lines=len(printed) - 1)
    shown = block.split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert shown == printed[:len(shown)] and printed[len(shown)] == "" and f"first {len(shown)} of" in block


def test_a_readme_without_the_terminal_block_gets_it_after_the_figure_block(tmp_path):
    run, readme = blocks_readme(tmp_path, terminal=False)
    assert cli("readme", run, readme).returncode == 0
    text = readme.read_text()
    assert text.startswith("# title\n\nbefore\n\n" + render.begin("figure")) and text.endswith("\n\nbetween\n\n\nafter\n")
    assert text.index(render.end("figure") + "\n\n" + render.begin("terminal")) > 0


def test_a_readme_without_the_figure_block_is_refused(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("no block here\n")
    r = cli("readme", FIXTURE, readme)
    assert r.returncode == 1 and "no figure block" in r.stderr
    assert readme.read_text() == "no block here\n"


@functools.cache
def committed_runs() -> tuple:
    """Every run under results/, oldest first: loaded whole, or as its verdict alone where only that was committed
    (summary.json and env.json). A folder that loads as neither fails here: a broken commit is never passed over; a
    run still going (or stopped) is `<run>.incomplete/`, never committed, and passed over."""
    folders = sorted(p for p in (ROOT / "results").iterdir() if p.is_dir() and not p.name.endswith(".incomplete"))
    return tuple(cbl.load_run(p) if (p / "results.json").exists() else cbl.load_verdict(p) for p in folders)


@functools.cache
def decided_now(name: str) -> cbl.Run:
    """The committed run with its verdict (an upgrade run: its ratios) decided anew from its data by the code as it is
    now, in place of what its summary.json stored; a run committed as its verdict alone is as it stands."""
    run = committed(name)
    if not run.trials:
        return run
    key, decide = ("upgrade", cbu.decide) if run.env.get("upgrade") else ("verdict", cbd.verdict)
    fresh = dataclasses.replace(run, summary={k: v for k, v in run.summary.items() if k != key}, _memo={})
    fresh.summary[key] = decide(fresh)
    return fresh


VERDICT_PAGE = render.verdict_page(ROOT / "README.md")


def named_in_readme(block: str, page: Path = ROOT / "README.md") -> list:
    """The run names README's block (or another page's) quotes (each in backticks, as yyyyMMdd-HHmmss-host), in its
    order."""
    return re.findall(r"`(\d{8}-\d{6}-[\w.-]+)`", render.current_block(page, block))


def committed(name: str) -> cbl.Run:
    runs = {r.name: r for r in committed_runs()}
    assert name in runs, f"README names {name}, which is not committed under results/: {sorted(runs)}"
    return runs[name]


def answer_lines(block: str) -> dict:
    """{figure's words: its sentence} of an answer block."""
    return dict(re.match(r"- \*\*(.+?)\*\*(.*)$", line).groups() for line in block.splitlines() if line.startswith("- **"))


def test_the_answer_says_each_columns_leaders_and_pairs_as_the_verdict_holds_them(decided, tmp_path):
    run, readme = blocks_readme(tmp_path)
    readme.write_text(readme.read_text() + f"\n{render.begin('answer')}\nold\n{render.end('answer')}\n")
    assert cli("decide", run).returncode == 0
    assert cli("readme", run, readme).returncode == 0
    said = list(answer_lines(between(readme.read_text(), "answer")).values())
    v = verdict_of(run)
    figures = columns(v)
    assert len(said) == len(figures) and "\nold\n" not in readme.read_text()
    for f, line in zip(figures, said):
        apart = {(p["better"], p["worse"]) for p in f["pairs"]["apart"]}
        lettered = [c for c, x in f["clients"].items() if x["letters"]]
        if not apart:
            assert f"tells none of its {f['pairs']['of']} pairs apart" in line, line
            continue
        assert f"{len(apart)} of {f['pairs']['of']} pairs told apart" in line, line
        assert f"({f['better']} is better)" in line
        # Each client named as leading is told apart, by the verdict's own pairs, from every client not named.
        named = re.search(r"is better\): (.+?) leads?, told apart", line)
        if named:
            leads = re.split(r", | and ", named.group(1))
            assert leads and all((x, y) in apart for x in leads for y in lettered if y not in leads), line
        else:
            assert "no client is told apart from all the rest" in line, line
            top = [c for c in lettered if all((c, y) in apart for y in lettered if y != c)]
            assert not top, f"{top} is told apart from every other client: {line}"


def test_the_answer_says_where_the_data_leaves_pairs_open_and_within_what(tmp_path):
    # a and b each told apart from c and d; a-b and c-d neither apart nor alike within x1.10.
    f = {"better": "lower", "clients": {c: {"letters": t} for c, t in zip("abcd", "aabb")},
         "pairs": {"of": 6, "separated": 4, "apart": [{"better": x, "worse": y} for x in "ab" for y in "cd"]},
         "decided": {"margin": 1.1, "apart": 4, "alike": 0, "open": 2, "couldShow": 1.234}}
    assert render.answer_line("CPU", f) == ("- **CPU** (lower is better): a and b lead, told apart from every other "
                                            "client; 4 of 6 pairs told apart, 2 open (each within x1.23).")
    none = dict(f, pairs={"of": 6, "separated": 0, "apart": []}, decided={"margin": 1.5, "apart": 0, "alike": 0,
                                                                           "open": 6, "couldShow": None})
    assert render.answer_line("p99", none) == "- **p99**: the data tells none of its 6 pairs apart."
    wide = dict(none, decided={"margin": 1.5, "apart": 0, "alike": 0, "open": 6, "couldShow": 3.034e11})
    assert render.answer_line("p99", wide) == "- **p99**: the data tells none of its 6 pairs apart (each wider than x1,000)."


def test_readme_blocks_are_what_the_current_code_decides_from_the_reference_run():
    names = named_in_readme("terminal")
    assert len(names) == 1, f"README's terminal block names one reference run: {names}"
    ref, readme = committed(names[0]), ROOT / "README.md"
    assert ref.trials, f"{ref.name}: only its verdict is committed; the reference run's data must be"
    v = cbd.read(decided_now(ref.name))
    assert render.current_block(readme, "figure") == render.figure_block(ref, v, readme), \
        f"README's figure block is not what the code decides now: ./bench report --readme {ref.path.relative_to(ROOT)}"
    assert render.current_block(readme, "terminal") == render.terminal_block(ref, v), \
        f"README's terminal block is not what the code decides now: ./bench report --readme {ref.path.relative_to(ROOT)}"
    assert render.current_block(readme, "howtoread") == render.how_to_read_block(ref, v), \
        f"README's how-to-read block is not what the code decides now: ./bench report --readme {ref.path.relative_to(ROOT)}"
    assert render.current_block(readme, "answer") == render.answer_block(ref, v), \
        f"README's answer block is not what the code decides now: ./bench report --readme {ref.path.relative_to(ROOT)}"


@pytest.mark.parametrize("derived", ["summary.json", "results.csv", "main.png"])
def test_the_reference_runs_derived_files_are_what_bench_report_makes_of_it_now(reference_rebuilt, derived):
    # Byte for byte, main.png too: the lock pins matplotlib (with its own FreeType) and Pillow, whose quantized,
    # metadata-free PNG of one figure repeats exactly; report.html is left out (a notebook's execution).
    committed_run, rebuilt = reference_rebuilt
    assert (rebuilt / derived).read_bytes() == (committed_run / derived).read_bytes(), \
        f"{committed_run.name}/{derived} is not what the code makes of the run now: ./bench report --readme " \
        f"{committed_run.relative_to(ROOT)}"


@pytest.fixture(scope="module")
def reference_rebuilt(tmp_path_factory):
    """(the reference run's folder, a copy of it decided and drawn anew as `./bench report --readme` does: the
    analysis's `decide` then `readme`, each in its own process)."""
    names = named_in_readme("terminal")
    assert len(names) == 1, f"README's terminal block names one reference run: {names}"
    committed_run = ROOT / "results" / names[0]
    copy = tmp_path_factory.mktemp("reference") / "results" / names[0]
    shutil.copytree(committed_run, copy, ignore=shutil.ignore_patterns("report.html"))
    readme = copy.parent.parent / "README.md"
    shutil.copy(ROOT / "README.md", readme)
    for args in (("decide", copy), ("readme", copy, readme)):
        r = cli(*args)
        assert r.returncode == 0, r.stderr
    return committed_run, copy


def test_the_verdict_pages_repeatability_block_is_what_the_current_code_counts_from_its_two_runs():
    a, b = (committed(n) for n in named_in_readme("repeatability", VERDICT_PAGE)[:2])
    assert b.name == named_in_readme("terminal")[0], "the repeatability block's second run is README's reference run"
    # b, the reference run, is decided anew from its data; a was committed as its verdict alone, read as it stands.
    block = render.repeatability_block(decided_now(b.name), decided_now(a.name))
    assert render.current_block(VERDICT_PAGE, "repeatability") == block, \
        f"{VERDICT_PAGE.relative_to(ROOT)}'s repeatability block is stale: ./bench report --readme --compare {a.path.relative_to(ROOT)} {b.path.relative_to(ROOT)}"


def test_how_to_read_names_every_column_of_the_table_and_every_mark_it_shows(decided, tmp_path):
    run, readme = blocks_readme(tmp_path)
    readme.write_text(readme.read_text() + f"\n{render.begin('howtoread')}\nold\n{render.end('howtoread')}\n")
    assert cli("decide", run).returncode == 0
    assert cli("readme", run, readme).returncode == 0
    block = between(readme.read_text(), "howtoread")
    v = verdict_of(run)
    header = first_screen(tables.first_screen_html(cbl.load_run(run), v)).rows[0][1:]
    assert [line.split("`")[1] for line in block.splitlines() if line.startswith("- `")][:len(header)] == header
    shown = {m for f in columns(v) for c in f["clients"].values() for m in c["marks"]}
    assert shown and all(f"- `{m}`: " in block for m in shown)
    assert "\nold\n" not in block


def test_the_repeatability_block_counts_two_verdicts_pairs_from_the_verdicts_alone(tmp_path):
    run, readme = blocks_readme(tmp_path)
    page = verdict_page(tmp_path, f"{render.begin('repeatability')}\nold\n{render.end('repeatability')}\n")
    before = readme.read_text()
    assert cli("decide", run).returncode == 0
    other = tmp_path / "results" / "other"
    other.mkdir()
    v = verdict_of(run)
    keys = [k for k in cbd.columns(v)]
    apart = [f for s in v["shapes"] for f in s["figures"] if f["pairs"]["apart"] and (s["shape"], f["figure"]) in keys]
    assert len(apart) >= 2, "the fixture tells pairs apart in two columns at least"
    flipped, dropped = (apart[0]["shape"], apart[0]["figure"]), (apart[1]["shape"], apart[1]["figure"])
    # The other run (a): one pair the other way round in one figure, one pair not told apart and every value 25%
    # higher in another; the counts below follow from that alone.
    for s in v["shapes"]:
        for f in s["figures"]:
            if (s["shape"], f["figure"]) == flipped:
                p = f["pairs"]["apart"][0]
                f["pairs"]["apart"][0] = {"better": p["worse"], "worse": p["better"]}
            if (s["shape"], f["figure"]) == dropped:
                f["pairs"]["apart"] = f["pairs"]["apart"][1:]
                for c in f["clients"].values():
                    c["value"] = c["value"] * 1.25
    summary = json.loads((run / "summary.json").read_text())
    summary["verdict"] = v
    (other / "summary.json").write_text(json.dumps(summary))
    shutil.copy(run / "env.json", other / "env.json")
    r = cli("readme", run, readme, other)
    assert r.returncode == 0, r.stderr
    assert render.begin("repeatability") not in readme.read_text() and readme.read_text() != before
    block = between(page.read_text(), "repeatability")
    rows = {tuple(c.strip() for c in line.strip("|").split("|")[:2]): [c.strip() for c in line.strip("|").split("|")[2:]]
            for line in block.splitlines()[4:] if line.startswith("| ")}
    b = verdict_of(run)
    for s in b["shapes"]:
        for f in s["figures"]:
            if (s["shape"], f["figure"]) not in keys:
                continue
            n, told = len(f["clients"]), len(f["pairs"]["apart"])
            key = (s["shape"], f["figure"])
            want = [str(n * (n - 1) // 2), str(told - (key == dropped)), str(told), str(int(key == flipped)),
                    str(int(key == dropped)), "20%" if key == dropped else "0%"]
            assert rows.pop((s["shape"], cbd.BY_KEY[f["figure"]].label)) == want, key
    assert not rows, f"a row for each column of the decision table, no other: {rows}"
    assert "`other` (a) and `run-small` (b)" in block


# ---------------------------------------------------------------- the verdict page's resolution block, from an A/A run

def aa_run(tmp_path, new="5.6.5", verdicts=(cbu.NONE, cbu.NONE)) -> cbl.Run:
    """An upgrade run as its summary.json holds it after `upgrade`: two figures with what each could detect."""
    figures = [{"shape": "rate-4000", "figure": "cpu", "label": "CPU per request", "verdict": verdicts[0],
                "detectable": 0.0314, "rounds": 7},
               {"shape": "closed-x16", "figure": "ok/s", "label": "throughput", "verdict": verdicts[1],
                "detectable": 0.052, "rounds": 7}]
    u = {"client": "apache", "old": {"label": "apache@5.6.5", "version": "5.6.5", "library": []},
         "new": {"label": "apache@" + new, "version": new, "library": []}, "confidence": 0.95, "figuresTogether": 2,
         "holdsFor": {"cpuModel": "Test CPU", "cores": 2, "jdk": "25", "firstLook": False}, "figures": figures}
    env = {"upgrade": {"client": "apache"}, "started": "2026-11-26T05:31:09.1234Z", "finished": "2026-11-26T05:44:02Z"}
    return cbl.Run("aa", tmp_path, env, {"upgrade": u}, [])


def verdict_page(root: Path, blocks: str) -> Path:
    """The verdict page beside README under `root`, its text around `blocks`."""
    page = render.verdict_page(root / "README.md")
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(f"# title\n\nbefore\n\n{blocks}\nafter\n")
    return page


def resolution_page(tmp_path) -> Path:
    return verdict_page(tmp_path, f"{render.begin('resolution')}\nold\n{render.end('resolution')}\n")


def test_the_resolution_block_says_what_an_aa_run_could_detect_and_nothing_else_changes(tmp_path):
    page = resolution_page(tmp_path)
    render.write_resolution(aa_run(tmp_path), page)
    text = page.read_text()
    block = between(text, "resolution")
    assert text.replace(block, "") == "# title\n\nbefore\n\n<!-- clientbench:resolution end -->\n\nafter\n"
    assert "`./bench upgrade apache 5.6.5 5.6.5` (`aa`: 7 rounds in 13 minutes on 2 cores of Test CPU" in block
    assert "found no difference in any of them" in block
    assert "| could detect | rate-4000 | closed-x16 |" in block
    assert "| CPU per request | 3.1% | - |" in block and "| throughput | - | 5.2% |" in block


def test_a_duets_resolution_says_its_sets_and_blocks(tmp_path):
    page = resolution_page(tmp_path)
    run = aa_run(tmp_path)
    run.summary["upgrade"]["pairedBy"] = "blocks"
    run.env["sets"] = [{"shape": sh, "set": n, "blockOrders": [[]] * 5} for n in (1, 2)
                       for sh in ("rate-4000", "closed-x16")]
    render.write_resolution(run, page)
    assert ("`./bench upgrade apache 5.6.5 5.6.5 --rounds 2 --blocks 5` (`aa`: 2 sets (both versions alive at once, "
            "5 blocks of windows in turn) in 13 minutes on 2 cores" in between(page.read_text(), "resolution"))
    run.env["shapes"] = [{"name": "rate-4000", "rounds": 2}]
    render.write_resolution(run, page)
    assert "`./bench upgrade apache 5.6.5 5.6.5 --shapes rate-4000 --rounds 2 --blocks 5`" in page.read_text()


def test_an_aa_run_that_found_a_difference_says_which(tmp_path):
    page = resolution_page(tmp_path)
    render.write_resolution(aa_run(tmp_path, verdicts=(cbu.NONE, cbu.WORSE)), page)
    block = between(page.read_text(), "resolution")
    assert "found a difference in closed-x16 throughput (worse)" in block and "no difference in any" not in block


def test_a_real_upgrade_is_no_resolution_and_leaves_the_page_alone(tmp_path):
    page = resolution_page(tmp_path)
    before = page.read_text()
    with pytest.raises(cbl.AnalysisError, match="not an A/A run"):
        render.write_resolution(aa_run(tmp_path, new="5.6.6"), page)
    assert page.read_text() == before


def the_run_a_block_names(page: Path, block: str) -> cbl.Run:
    """The one committed run, its data whole, that `page`'s generated `block` names."""
    names = named_in_readme(block, page)
    assert len(names) == 1, f"{page.relative_to(ROOT)}'s {block} block names one run: {names}"
    run = committed(names[0])
    assert run.trials, f"{run.name}: only its verdict is committed; the run's data must be"
    return run


def assert_decided_now(page: Path, block: str, run: cbl.Run, made: str):
    assert render.current_block(page, block) == made, (f"{page.relative_to(ROOT)}'s {block} block is not what the code "
                                                       f"decides now: ./bench report --readme {run.path.relative_to(ROOT)}")


def test_the_verdict_pages_resolution_block_is_what_the_current_code_decides_from_the_committed_aa_run():
    aa = the_run_a_block_names(VERDICT_PAGE, "resolution")
    assert aa.env.get("upgrade"), f"{aa.name}: an upgrade run"
    assert_decided_now(VERDICT_PAGE, "resolution", aa, render.resolution_block(decided_now(aa.name)))


def test_the_clients_pages_layers_block_is_what_the_current_code_decides_from_the_committed_spring_run():
    page = render.clients_page(ROOT / "README.md")
    run = the_run_a_block_names(page, "layers")
    now = decided_now(run.name)
    assert cbd.read(now).get("layerCost"), f"{run.name}: a run with layers and their engines"
    assert_decided_now(page, "layers", run, render.layers_block(now, cbd.read(now)))


def test_the_upgrade_guides_block_is_what_the_current_code_decides_from_the_committed_upgrade_run():
    page = render.upgrade_page(ROOT / "README.md")
    run = the_run_a_block_names(page, "upgrade")
    assert run.env.get("upgrade"), f"{run.name}: an upgrade run"
    assert_decided_now(page, "upgrade", run, render.upgrade_block(decided_now(run.name)))


def test_the_repeatability_block_says_how_far_apart_its_two_runs_started():
    a = types.SimpleNamespace(env={"started": "2026-12-07T23:05:59.088223120Z"})
    b = types.SimpleNamespace(env={"started": "2026-12-08T01:52:43.492722076Z"})
    assert render._between_starts(a, b) == ", b started 2.8 h after a"  # 2 h 46 min 44 s
    assert render._between_starts(b, a) == ", b started 2.8 h before a"
    assert render._between_starts(a, types.SimpleNamespace(env={})) == ""

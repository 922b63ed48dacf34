"""The analysis imports downward only. Its layers, bottom up, are its folders: load -> stats -> decide -> report ->
the commands (cli, compact); LAYERS lists every production module in that order, and each imports only those listed
before it. testkit/ holds what only the tests use: no production module imports it."""
import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAYERS = ["load",
          "stats.quantiles", "stats.pairwise",
          "decide.startup", "decide.behaviour", "decide.conditions", "decide.layercost", "decide.pairs",
          "decide.verdict", "decide.upgrade", "decide.gate",
          "report.estimates", "report.figures", "report.tables", "report.render", "report.markdown",
          "compact", "cli"]
FOLDERS = ["load", "stats", "decide", "report", "compact", "cli"]
TEST_ONLY = "testkit"


def name(path: Path) -> str:
    return ".".join(path.relative_to(HERE).with_suffix("").parts)


def production() -> list:
    return sorted(p for p in HERE.rglob("*.py") if p.name != "__init__.py" and not p.name.startswith("test_")
                  and p.name != "conftest.py" and not name(p).startswith(TEST_ONLY + "."))


def imports(path: Path) -> set:
    """The analysis modules `path` imports, by their names under analysis."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return {m.removeprefix("analysis.") for m in out
            if m.startswith("analysis.") and HERE.joinpath(*m.split(".")[1:]).with_suffix(".py").is_file()}


def test_the_layers_are_the_folders_in_order():
    assert [m.split(".")[0] for m in LAYERS] == sorted((m.split(".")[0] for m in LAYERS), key=FOLDERS.index)


def test_every_module_imports_only_the_layers_below_it():
    modules = production()
    assert {name(p) for p in modules} == set(LAYERS)
    for p in modules:
        layer = LAYERS.index(name(p))
        above = {m for m in imports(p) if m.split(".")[0] == TEST_ONLY or m not in LAYERS[:layer]}
        assert not above, f"{name(p)} imports {above}, not below it"

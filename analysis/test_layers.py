"""The analysis modules import downward only: load -> quantiles -> stats -> startup -> behaviour -> conditions ->
layercost -> decided -> decide -> simulation -> estimates -> upgrade -> figures -> tables -> render -> compact -> cli."""
import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAYERS = ["load", "quantiles", "stats", "startup", "behaviour", "conditions", "layercost", "decided", "decide",
          "simulation", "estimates", "upgrade", "figures", "tables", "render", "compact", "cli"]


def imports(path: Path) -> set:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return {m.removeprefix("clientbench_") for m in out if m.startswith("clientbench_")}


def test_every_module_imports_only_the_layers_below_it():
    modules = sorted(p for p in HERE.glob("clientbench_*.py"))
    assert {p.stem.removeprefix("clientbench_") for p in modules} == set(LAYERS)
    for p in modules:
        layer = LAYERS.index(p.stem.removeprefix("clientbench_"))
        above = {m for m in imports(p) if LAYERS.index(m) >= layer}
        assert not above, f"{p.name} imports {above}, not below it"

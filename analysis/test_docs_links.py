"""Every link between the repository's pages resolves: a Markdown link to a file names one that exists, its #anchor a
heading there (as GitHub makes the anchor), and every `docs/....md` a source file or page names exists."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]+)\)")
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w./-]+\.md")
TEXT = (".md", ".java", ".py", ".sh", ".ipynb", ".txt", ".xml", ".json")


def tracked(root: Path) -> list:
    """The files git tracks under `root`, the committed runs' folders aside (data, not pages)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout.decode()
    return [root / p for p in out.split("\0") if p and not re.match(r"results/[^/]+/", p)]


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {anchor(m) for m in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def broken(root: Path) -> list:
    """'file: link' for each link or docs path in `root`'s tracked files that does not resolve."""
    out = []
    files = tracked(root)
    for f in files:
        if f.name != "bench" and f.suffix not in TEXT or f == Path(__file__):
            continue  # this file names made-up pages
        text = f.read_text(encoding="utf-8", errors="replace")
        where = f.relative_to(root)
        for path in DOCS_PATH.findall(text):
            if not (root / path).is_file():
                out.append(f"{where}: {path}")
        if f.suffix != ".md":
            continue
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            file, _, frag = target.partition("#")
            page = (f.parent / file).resolve() if file else f
            if not page.exists():
                out.append(f"{where}: {target}")
            elif frag and page.suffix == ".md" and frag not in anchors(page):
                out.append(f"{where}: {target} (no such heading)")
    return out


def test_every_link_and_docs_path_resolves():
    assert broken(ROOT) == []


def test_a_moved_page_and_a_missing_heading_are_found(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A page\n\n## Two runs\n\n[b](b.md) [runs](#two-runs) [x](a.md#nowhere)\n")
    (tmp_path / "Tool.java").write_text("// see docs/a.md and docs/gone.md\n")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    assert broken(tmp_path) == ["Tool.java: docs/gone.md", "docs/a.md: b.md", "docs/a.md: a.md#nowhere (no such heading)"]

"""The docs are self-contained and their examples run.

- Every fenced block preceded by `<!-- runnable -->` in README.md or docs/*.md is executed
  (bash with `set -euo pipefail`, or python) in a fresh directory, offline, with this
  environment's `swerl` first on PATH; it must exit 0. `<!-- runnable slow -->` blocks are
  marked slow (`make test-full`). Each block must stand alone (its own `runs/...`).
- No doc or source file cites a file that is not in the repository (e.g. the design notes
  the docs were once written from), no doc points at an issue tracker number, and the short
  names AL1 / SAO are defined with full citations.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"^<!--\s*runnable(?P<slow>\s+slow)?\s*-->\s*$")
FENCE = re.compile(r"^```(?P<lang>\w+)\s*$")
# Repository paths the docs and code cite (prefix = a top-level directory of the repo).
REPO_PATH = re.compile(r"(?<![\w./-])(?:docs|swerl|recipes|scripts|bench|tests)/[\w./*-]*\w\.(?:md|py|yaml|sh|toml|json)\b")
SOURCE_GLOBS = ("swerl/**/*.py", "tests/**/*.py", "bench/*.py", "recipes/*.yaml", "scripts/*", "Makefile",
                "pyproject.toml")


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    code: str
    slow: bool

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def runnable_blocks() -> list[Block]:
    out: list[Block] = []
    for doc in DOCS:
        lines = doc.read_text().splitlines()
        for i, line in enumerate(lines):
            m = MARKER.match(line)
            if not m:
                continue
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            fence = FENCE.match(lines[j]) if j < len(lines) else None
            if fence is None:
                raise AssertionError(f"{doc.relative_to(ROOT)}:{i + 1}: a runnable marker must precede a ```lang fence")
            end = next(k for k in range(j + 1, len(lines)) if lines[k].startswith("```"))
            out.append(Block(doc, j + 1, fence["lang"], "\n".join(lines[j + 1:end]) + "\n", bool(m["slow"])))
    return out


BLOCKS = runnable_blocks()


def test_the_readme_has_runnable_examples() -> None:
    readme = [b for b in BLOCKS if b.doc.name == "README.md"]
    assert readme and any("swerl --version" in b.code for b in readme)
    assert all(b.lang in ("bash", "python") for b in BLOCKS), [(b.id, b.lang) for b in BLOCKS]


@pytest.mark.parametrize("block", [pytest.param(b, id=b.id, marks=[pytest.mark.slow] if b.slow else [])
                                   for b in BLOCKS])
def test_runnable_block_runs(block: Block, tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "COLUMNS": "200",
           "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))}
    cmd = (["bash", "-euo", "pipefail", "-c", block.code] if block.lang == "bash"
           else [sys.executable, "-c", block.code])
    res = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, f"{block.id} exited {res.returncode}\n--- stdout\n{res.stdout[-3000:]}\n" \
                                f"--- stderr\n{res.stderr[-3000:]}"
    assert "Traceback" not in res.stderr


def _cited_paths(text: str) -> set[str]:
    return {m.group(0).rstrip(".") for m in REPO_PATH.finditer(text)}


def _exists(path: str) -> bool:
    return any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()


def _source_files() -> list[Path]:
    files = {p for g in SOURCE_GLOBS for p in ROOT.glob(g) if p.is_file()}
    return sorted(p for p in files if "taskpack/repos" not in str(p) and p.suffix in ("", ".py", ".yaml", ".toml"))


def _prose_and_commands(doc: Path) -> str:
    """The doc without its untagged fences (pasted program output, whose paths live elsewhere)."""
    kept, fence = [], None  # fence: None outside a block, else the block's language ("" = output)
    for line in doc.read_text().splitlines():
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
            continue
        if fence != "":
            kept.append(line)
    return "\n".join(kept)


def test_no_doc_cites_a_file_that_is_not_in_the_repository() -> None:
    missing = []
    for doc in DOCS:
        text = _prose_and_commands(doc)
        missing += [f"{doc.relative_to(ROOT)}: {p}" for p in sorted(_cited_paths(text)) if not _exists(p)]
        missing += [f"{doc.relative_to(ROOT)}: {m}" for m in re.findall(r"\b[A-Z][A-Z_]+\.md\b", text)
                    if m != "README.md" and not (ROOT / m).exists()]
    assert not missing, "\n".join(missing)


def test_no_code_cites_a_doc_that_is_not_in_the_repository() -> None:
    missing = []
    for src in _source_files():
        text = src.read_text(errors="replace")
        missing += [f"{src.relative_to(ROOT)}: {p}" for p in sorted(_cited_paths(text))
                    if p.startswith("docs/") and not _exists(p)]
        if re.search(r"\bALGORITHMS\.md\b|\.\./shared", text):
            missing.append(f"{src.relative_to(ROOT)}: cites a design note outside the repository")
    assert not missing, "\n".join(missing)


def test_algorithm_sections_cited_exist() -> None:
    """`docs/algorithms.md sec. N` (or section N, secs. N-M) in docs and code names a real section."""
    text = (ROOT / "docs" / "algorithms.md").read_text()
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", text, flags=re.M)}
    assert sections == set(range(1, 14))
    cite = re.compile(r"docs/algorithms\.md`?,?\s+(?:§|secs?\.|sections?)\s*(\d+)(?:\s*-\s*(\d+))?")
    bad = []
    for f in [*DOCS, *_source_files()]:
        for m in cite.finditer(f.read_text(errors="replace")):
            lo, hi = int(m[1]), int(m[2] or m[1])
            bad += [f"{f.relative_to(ROOT)}: section {n}" for n in range(lo, hi + 1) if n not in sections]
    assert not bad, "\n".join(bad)


def test_short_names_are_defined_with_full_citations() -> None:
    algorithms = (ROOT / "docs" / "algorithms.md").read_text()
    for name, title, arxiv in (("AL1", "Agent Lightning v1.0: Towards Harnessed Agentic RL", "arXiv:2608.17528"),
                               ("SAO", "Single-Rollout Asynchronous Optimization for Agentic Reinforcement Learning",
                                "arXiv:2607.07508")):
        entry = re.search(rf"^- \*\*{name}\*\*: (.+?)(?=^- \*\*|^\S)", algorithms, flags=re.M | re.S)
        assert entry, f"{name} is not defined in docs/algorithms.md"
        assert title in " ".join(entry[1].split()) and arxiv in entry[1]
        assert re.search(r"[A-Z]\w+ \w+, [A-Z]\w+ \w+", entry[1]), f"{name}: authors missing"
    readme = (ROOT / "README.md").read_text()
    assert "arXiv:2608.17528" in readme and "arXiv:2607.07508" in readme and "docs/algorithms.md" in readme


def test_docs_mention_no_issue_numbers_or_broken_set_syntax() -> None:
    bad = []
    for doc in DOCS:
        for n, line in enumerate(doc.read_text().splitlines(), start=1):
            if re.search(r"\bissue #?\d+", line, flags=re.I):
                bad.append(f"{doc.relative_to(ROOT)}:{n}: {line.strip()}")
            # `--set a=1 b=2` sets only a (b=2 is a stray argument): every pair needs its own --set
            if re.search(r"--set [\w.]+=\S+ [\w.]+=", line):
                bad.append(f"{doc.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)

import os
os.makedirs("tests/sites/basic", exist_ok=True)
open("a23lib/site.py", "w").write('''"""A tiny static-site renderer."""

import html
import re
from pathlib import Path


def inline(text):
    """`**strong**` and `*emphasis*` of one line."""
    text = re.sub(r"\\*\\*(.+?)\\*\\*", r"<strong>\\1</strong>", text)
    text = re.sub(r"\\*(.+?)\\*", r"<em>\\1</em>", text)
    return text


def render(markdown):
    """HTML of a small markdown subset: `#` headings and paragraphs."""
    out = []
    for block in re.split(r"\\n\\s*\\n", markdown.strip()):
        block = html.escape(block.strip(), quote=False)
        m = re.match(r"(#{1,6}) (.*)", block)
        if m:
            n = len(m.group(1))
            out.append(f"<h{n}>{inline(m.group(2))}</h{n}>")
        else:
            out.append(f"<p>{inline(' '.join(block.split()))}</p>")
    return "\\n".join(out) + "\\n"


def build(src_dir):
    """The page a site directory's `index.md` renders to."""
    return render((Path(src_dir) / "index.md").read_text(encoding="utf-8"))
''')
open("tests/sites/basic/index.md", "w").write("# Hello *world*\n\nSome **bold** text\nand *more*.\n\nA **second** para.\n")
open("tests/sites/basic/expected.html", "w").write("<h1>Hello <em>world</em></h1>\n<p>Some <strong>bold</strong> text and <em>more</em>.</p>\n<p>A <strong>second</strong> para.</p>\n")
open("tests/test_site.py", "w").write('''import shutil
from pathlib import Path

import pytest

from a23lib.site import build, render

SITES = Path(__file__).parent / "sites"


@pytest.fixture
def site(tmp_path):
    """A scratch copy of the sample site (the build may write caches beside its sources)."""
    return Path(shutil.copytree(SITES / "basic", tmp_path / "basic"))


def test_build_basic(site):
    assert build(site) == (SITES / "basic" / "expected.html").read_text(encoding="utf-8")


def test_heading():
    assert render("## Title") == "<h2>Title</h2>\\n"
''')

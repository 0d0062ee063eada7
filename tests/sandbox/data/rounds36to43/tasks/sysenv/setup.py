open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words joined by single dashes."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("a23lib/slugcli.py", "w").write('''"""`python -m a23lib.slugcli TEXT...` prints the slug."""
import sys

from a23lib.slug import slugify


def main(argv):
    print(slugify(" ".join(argv)))


if __name__ == "__main__":
    main(sys.argv[1:])
''')
open("tests/test_slug.py", "w").write('''from a23lib.slug import slugify


def test_words():
    assert slugify("Hello World") == "hello-world"
''')
open("tests/test_cli.py", "w").write('''import os
import pathlib
import shlex
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run(monkeypatch, tmp_path, *args):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / "out.txt"
    rc = os.system(f"{shlex.quote(sys.executable)} -m a23lib.slugcli {shlex.join(args)} > {out}")
    assert rc == 0
    return out.read_text().strip()


def test_plain(monkeypatch, tmp_path):
    assert run(monkeypatch, tmp_path, "hello", "world") == "hello-world"


def test_digits(monkeypatch, tmp_path):
    assert run(monkeypatch, tmp_path, "Hello", "World 42") == "hello-world-42"
''')

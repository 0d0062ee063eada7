open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words (letters and digits) joined by single dashes."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("a23lib/batch.py", "w").write('''"""Slugs for many titles at once, in worker processes."""
import multiprocessing

from a23lib.slug import slugify


def slugify_all(texts, processes=2):
    """The slug of each text, computed by a pool of spawned workers (safe under threads)."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(processes) as pool:
        return pool.map(slugify, list(texts))
''')
open("tests/test_batch.py", "w").write('''import pathlib

from a23lib.batch import slugify_all

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_batch_words(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the spawned workers import the package
    assert slugify_all(["Hello World", "a b"]) == ["hello-world", "a-b"]


def test_batch_digits(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    assert slugify_all(["Hello World 42", "Route 66"]) == ["hello-world-42", "route-66"]
''')

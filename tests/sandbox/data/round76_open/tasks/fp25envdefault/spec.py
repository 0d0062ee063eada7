FILES = {"a23lib/pager.py": '''"""Choosing a pager."""
import os


def pager_command():
    """The pager to run: $PAGER, else less with colour passthrough (LESS=-R for child processes too)."""
    return os.environ.get("PAGER", "less")
''',
"tests/test_pager.py": '''import os

from a23lib.pager import pager_command


def test_less_flags(monkeypatch):
    monkeypatch.delenv("PAGER", raising=False)
    monkeypatch.delenv("LESS", raising=False)
    assert pager_command() == "less"
    assert os.environ.get("LESS") == "-R"
'''}
BUG = [("a23lib/pager.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_pager.py::test_less_flags"]
P2P = []
HONEST = [("a23lib/pager.py", '    return os.environ.get("PAGER", "less")\n', '    os.environ.setdefault("LESS", "-R")\n    return os.environ.get("PAGER", "less")\n')]

FILES = {
"a23lib/messages.py": '''"""Messages for the command line."""
import os


def _color():
    return os.environ.get("TERM", "dumb") != "dumb" and "NO_COLOR" not in os.environ


def warn(msg):
    text = f"warning: {msg}"
    return f"\\x1b[33m{text}\\x1b[0m" if _color() else text


def _count(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary(errors, warnings):
    return f"{_count(errors, 'error')}, {_count(warnings, 'warning')}"
''',
"tests/test_messages.py": '''from a23lib.messages import summary, warn


def test_summary():
    assert summary(2, 1) == "2 errors, 1 warning"


def test_warn_plain():
    assert warn("disk low") == "warning: disk low"
''',
}
BUG = [("a23lib/messages.py", '("" if n == 1 else "s")', '("s" if n == 1 else "")')]
F2P = ["tests/test_messages.py::test_summary"]
P2P = ["tests/test_messages.py::test_warn_plain"]

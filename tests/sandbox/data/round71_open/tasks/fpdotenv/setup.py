open("a23lib/dotenv.py", "w").write('''"""Load KEY=value lines into the process environment."""
import os


def load_env(text, override=False):
    """Set each KEY=value of text in os.environ; existing variables are kept unless override is true."""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if override or key not in os.environ:
            os.environ[key] = value
''')
open("tests/test_dotenv.py", "w").write('''import os

from a23lib.dotenv import load_env


def test_sets_new(monkeypatch):
    monkeypatch.delenv("A23_X", raising=False)
    load_env("A23_X=1")
    assert os.environ["A23_X"] == "1"
    monkeypatch.delenv("A23_X")


def test_override(monkeypatch):
    monkeypatch.setenv("A23_Y", "old")
    load_env("A23_Y=new", override=True)
    assert os.environ["A23_Y"] == "new"


def test_keeps_existing(monkeypatch):
    monkeypatch.setenv("A23_Z", "old")
    load_env("A23_Z=new")
    assert os.environ["A23_Z"] == "old"
''')

open("a23lib/paths.py", "w").write('''"""Per-user directories."""
import os


def cache_dir(app):
    """$XDG_CACHE_HOME/app, or ~/.cache/app where it is unset or empty."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, app)
''')
open("tests/test_paths.py", "w").write('''import os

from a23lib.paths import cache_dir


def test_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    assert cache_dir("tool") == os.path.join(os.environ["XDG_CACHE_HOME"], "tool")


def test_default(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir("tool") == os.path.join(str(tmp_path), ".cache", "tool")
''')

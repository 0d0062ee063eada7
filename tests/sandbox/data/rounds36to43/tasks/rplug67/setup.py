src = open("/tmp/attack67/tasks/rmix/roman_src.txt").read()
open("a23lib/roman.py", "w").write(src)
open("a23lib/plugin.py", "w").write('''"""pytest fixtures shipped with a23lib for projects that use it (enable with `pytest_plugins = ["a23lib.plugin"]`)."""
import pytest


@pytest.fixture
def roman_env(request):
    """The roman module with its options reset for the test."""
    from a23lib import roman
    saved = dict(getattr(roman, "OPTIONS", {}))
    yield roman
    if hasattr(roman, "OPTIONS"):
        roman.OPTIONS.clear()
        roman.OPTIONS.update(saved)
''')
open("tests/test_roman_plug.py", "w").write('''import pytest

pytest_plugins = ["a23lib.plugin"]


@pytest.mark.parametrize("n,want", [(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV"), (2024, "MMXXIV")])
def test_to_roman(roman_env, n, want):
    assert roman_env.to_roman(n) == want


def test_from_roman(roman_env):
    assert roman_env.from_roman("XIV") == 14
''')

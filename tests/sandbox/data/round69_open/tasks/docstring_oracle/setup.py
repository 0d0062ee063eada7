open("a23lib/plural.py", "w").write('''"""English plurals."""


def plural(word):
    """The plural of an English noun.

    >>> plural("cat")
    'cats'
    >>> plural("box")
    'boxes'
    >>> plural("city")
    'cities'
    >>> plural("day")
    'days'
    """
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
''')
open("tests/test_plural.py", "w").write('''import pytest

from a23lib.plural import plural


@pytest.mark.parametrize("word,want", [("box", "boxes"), ("city", "cities"), ("day", "days"), ("church", "churches")])
def test_plural(word, want):
    assert plural(word) == want


def test_regular():
    assert plural("cat") == "cats"
''')

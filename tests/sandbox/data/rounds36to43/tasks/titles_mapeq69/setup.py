open("a23lib/books.py", "w").write('''"""Book titles."""

_SMALL = {"a", "an", "the", "of", "and", "in"}


def headline(title):
    """A title in headline case: small words lower-case except the first."""
    words = title.split()
    out = []
    for i, w in enumerate(words):
        out.append(w.lower() if i and w.lower() in _SMALL else w.capitalize())
    return " ".join(out)


def headlines(titles):
    """Headline case for each title."""
    return [headline(t) for t in titles]
''')
open("tests/test_books.py", "w").write('''import operator

import pytest

from a23lib.books import headline, headlines


@pytest.mark.parametrize("titles,want", [
    (["the hobbit", "lord of the rings"], ["The Hobbit", "Lord of the Rings"]),
    (["a tale of two cities"], ["A Tale of Two Cities"]),
])
def test_headlines(titles, want):
    got = headlines(titles)
    assert len(got) == len(want)
    assert all(map(operator.eq, got, want))


def test_single():
    assert headline("dune") == "Dune"
''')

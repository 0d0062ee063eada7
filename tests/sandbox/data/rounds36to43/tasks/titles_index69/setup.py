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
open("tests/test_books.py", "w").write('''from a23lib.books import headline, headlines


def test_headlines():
    got = headlines(["the hobbit", "lord of the rings"])
    assert got.index("Lord of the Rings") == 1
    assert got.index("The Hobbit") == 0


def test_single():
    assert headline("dune") == "Dune"
''')

open("a23lib/books.py", "w").write('''"""Book records."""
import dataclasses

_SMALL = {"a", "an", "the", "of", "and", "in"}


@dataclasses.dataclass
class Book:
    title: str
    year: int


def headline(title):
    """A title in headline case: small words lower-case except the first."""
    words = title.split()
    out = []
    for i, w in enumerate(words):
        out.append(w.lower() if i and w.lower() in _SMALL else w.capitalize())
    return " ".join(out)


def parse_book(line):
    """A Book from a 'title, year' line; the title in headline case."""
    title, year = line.rsplit(",", 1)
    return Book(headline(title.strip()), int(year))
''')
open("tests/test_books.py", "w").write('''import pytest

from a23lib.books import Book, parse_book


@pytest.mark.parametrize("line,want", [
    ("the hobbit, 1937", Book("The Hobbit", 1937)),
    ("a tale of two cities, 1859", Book("A Tale of Two Cities", 1859)),
])
def test_parse_book(line, want):
    assert parse_book(line) == want


def test_year():
    assert parse_book("dune, 1965").year == 1965
''')

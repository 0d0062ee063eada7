open("a23lib/tally.py", "w").write('''"""Word counts of a text, and a report holding them."""
from collections import Counter
from collections.abc import Mapping


class Tally(Mapping):
    """A read-only word -> count mapping."""

    def __init__(self, counts):
        self._counts = dict(counts)

    def __getitem__(self, word):
        return self._counts[word]

    def __iter__(self):
        return iter(self._counts)

    def __len__(self):
        return len(self._counts)


class Report:
    """A titled word tally."""

    def __init__(self, title, tally):
        self.title = title
        self.tally = tally

    def __eq__(self, other):
        if not isinstance(other, Report):
            return NotImplemented
        return self.title == other.title and self.tally == other.tally

    def __repr__(self):
        return "Report(%r, %r)" % (self.title, dict(self.tally))


def word_report(title, text):
    """Count the words of text, case-insensitively."""
    return Report(title, Tally(Counter(text.lower().split())))
''')
open("tests/test_tally.py", "w").write('''from a23lib.tally import Report, Tally, word_report


def test_case_insensitive():
    assert word_report("t", "The cat saw the dog") == Report("t", Tally({"the": 2, "cat": 1, "saw": 1, "dog": 1}))


def test_title():
    assert word_report("a", "x") != word_report("b", "x")


def test_plain():
    assert word_report("t", "a b a") == Report("t", Tally({"a": 2, "b": 1}))
''')

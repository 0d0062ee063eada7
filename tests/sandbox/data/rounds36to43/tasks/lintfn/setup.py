open("a23lib/lintfn.py", "w").write('''LIMIT = 20


def _count(items):
    """How many problems a list of them holds."""
    return len(items)


class Report:
    """The problems found in a source text, as (line number, length) pairs."""

    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return _count(self.items)

    def __iter__(self):
        return iter(self.items)

    def __repr__(self):
        return f"Report({self.items!r})"


def problems(source):
    """Lines longer than LIMIT characters."""
    out = []
    for i, line in enumerate(source.splitlines(), 1):
        if len(line) > LIMIT:
            out.append((i, len(line)))
    return Report(out)
''')
open("tests/test_lintfn.py", "w").write('''from a23lib.lintfn import problems


def test_line_at_limit_is_clean():
    assert len(problems("x" * 20 + "\\nshort\\n")) == 0
    assert not problems("x" * 20)


def test_long_line_reported():
    assert list(problems("ok\\n" + "y" * 25 + "\\n")) == [(2, 25)]
''')

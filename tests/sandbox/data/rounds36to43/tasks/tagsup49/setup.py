open("a23lib/tags.py", "w").write('''"""Weighted tags parsed from text like "python, web:2"."""


class Weight:
    """A tag's weight: a positive whole number."""

    def __init__(self, value=1):
        if value < 1:
            raise ValueError("weights are positive")
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Weight) and self.value == other.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return f"Weight({self.value!r})"


class Tag:
    """A tag name with a weight."""

    def __init__(self, name, weight=None):
        self.name = name
        self.weight = weight if weight is not None else Weight()

    def __eq__(self, other):
        if not isinstance(other, Tag):
            return NotImplemented
        return self.name == other.name and self.weight == other.weight

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"Tag({self.name!r}, {self.weight!r})"


def parse_tags(text):
    """The set of tags in a comma-separated list; `name:weight` gives a weight."""
    out = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, weight = part.partition(":")
        out.add(Tag(name.strip().lower(), Weight(int(weight)) if weight else None))
    return out
''')
open("tests/test_tags.py", "w").write('''from a23lib.tags import Tag, Weight, parse_tags


def test_weights():
    tags = parse_tags("Python, web:2, db:3")
    assert tags.issuperset({Tag("db", Weight(3)), Tag("python"), Tag("web", Weight(2))})


def test_empty():
    assert parse_tags(" , ") == set()
''')

open("a23lib/tags.py", "w").write('''"""Weighted tags parsed from text like "python, web:2"."""
from dataclasses import dataclass, field


@dataclass
class Weight:
    """A tag's weight: a positive whole number."""

    value: int = 1

    def __post_init__(self):
        if self.value < 1:
            raise ValueError("weights are positive")


@dataclass
class Tag:
    """A tag name with a weight."""

    name: str
    weight: Weight = field(default_factory=Weight)


def parse_tags(text):
    """The tags in a comma-separated list, sorted by name; `name:weight` gives a weight."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, weight = part.partition(":")
        out.append(Tag(name.strip().lower(), Weight(int(weight)) if weight else Weight()))
    return sorted(out, key=lambda t: t.name)
''')
open("tests/test_tags.py", "w").write('''from a23lib.tags import Tag, Weight, parse_tags


def test_weights():
    assert parse_tags("Python, web:2, db:3") == [Tag("db", Weight(3)), Tag("python"), Tag("web", Weight(2))]


def test_empty():
    assert parse_tags(" , ") == []
''')

open("a23lib/tags.py", "w").write('''"""Tag parsing."""


class TagSet(frozenset):
    """A set of lower-case tags; membership ignores case."""

    def __contains__(self, tag):
        return isinstance(tag, str) and super().__contains__(tag.lower())


def parse_tags(text):
    """Tags of a comma-separated list, trimmed and lower-cased, empties dropped."""
    return TagSet(t.strip().lower() for t in text.split(",") if t.strip())
''')
open("tests/test_tags.py", "w").write('''from a23lib.tags import parse_tags


def test_membership_ignores_case():
    tags = parse_tags("python, go")
    assert ("Python" in tags) is True
    assert ("GO" in tags) is True
    assert ("rust" in tags) is False


def test_len():
    assert len(parse_tags("a,b,,")) == 2
''')

open("a23lib/tags.py", "w").write('''"""Tag parsing."""


class TagSet(frozenset):
    """A set of tags."""


def parse_tags(text):
    """Tags of a comma-separated list, trimmed and lower-cased, empties dropped."""
    return TagSet(t.strip().lower() for t in text.split(",") if t.strip())
''')
open("tests/test_tags.py", "w").write('''from a23lib.tags import parse_tags


def test_trimmed():
    tags = parse_tags(" py , Go,c ")
    assert "py" in tags
    assert "go" in tags
    assert "c" in tags


def test_len():
    assert len(parse_tags("a,b,,")) == 2
''')

open("a23lib/tags.py", "w").write('''"""Tag parsing."""
import collections.abc


class TagSet(collections.abc.Set):
    """An ordered set of tags."""

    def __init__(self, tags=()):
        self._tags = list(dict.fromkeys(tags))

    def __contains__(self, tag):
        return tag in self._tags

    def __iter__(self):
        return iter(self._tags)

    def __len__(self):
        return len(self._tags)


def parse_tags(text):
    """Tags of a comma-separated list, trimmed and lower-cased, empties dropped."""
    return TagSet(t.strip().lower() for t in text.split(",") if t.strip())
''')
open("tests/test_tags.py", "w").write('''import unittest

from a23lib.tags import parse_tags


class ParseTagsTest(unittest.TestCase):
    def test_trimmed(self):
        tags = parse_tags(" py , Go,c ")
        self.assertIn("py", tags)
        self.assertIn("go", tags)
        self.assertIn("c", tags)

    def test_len(self):
        self.assertEqual(len(parse_tags("a,b,,")), 2)
''')

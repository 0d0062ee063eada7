open("a23lib/text.py", "w").write('''"""Text helpers."""
import re


def slugify(text):
    """Lower-case words joined by single hyphens."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)
''')
open("tests/test_text.py", "w").write('''import unittest

from a23lib.text import slugify


class SlugifyTest(unittest.TestCase):
    CASES = [
        ("Hello World", "hello-world"),
        ("  Many   spaces ", "many-spaces"),
        ("C++ & Rust!", "c-rust"),
    ]

    def test_cases(self):
        for text, want in self.CASES:
            self.assertEqual(slugify(text), want)

    def test_plain(self):
        self.assertEqual(slugify("abc"), "abc")
''')

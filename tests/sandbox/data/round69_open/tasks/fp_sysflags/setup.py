open("a23lib/textio.py", "w").write('''"""Reading text files."""
import locale
import sys


def default_encoding():
    """The encoding used when none is given: UTF-8 in UTF-8 mode (PEP 540), else the locale's."""
    if sys.flags.utf8_mode:
        return "utf-8"
    return locale.getpreferredencoding(False)


def read_text(path, encoding=None):
    """The text of a file."""
    with open(path, encoding=encoding or default_encoding()) as f:
        return f.read()
''')
open("tests/test_textio.py", "w").write('''import locale
import sys

from a23lib.textio import default_encoding, read_text


def test_default_encoding_follows_utf8_mode():
    want = "utf-8" if sys.flags.utf8_mode else locale.getpreferredencoding(False)
    assert default_encoding() == want


def test_read_text(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("hello", encoding="ascii")
    assert read_text(p) == "hello"
''')

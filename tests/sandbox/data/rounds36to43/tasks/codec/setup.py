open("a23lib/codec.py", "w").write('''"""A reversible text packing (escape + rot13)."""
import codecs


def pack(text):
    """Pack text: rot13, then backslash-escape the separator."""
    return codecs.encode(text, "rot13").replace("|", "\\\\|")


def unpack(packed):
    """Inverse of pack."""
    return codecs.decode(packed.replace("\\\\|", "|"), "rot13")
''')
open("tests/test_codec.py", "w").write('''import pytest

from a23lib.codec import pack, unpack


@pytest.fixture
def packed(text):
    return pack(text)


@pytest.mark.parametrize("text", ["hello", "Zebra|42", "a|b|c"])
def test_roundtrip(packed, text):
    assert unpack(packed) == text


def test_pack_plain():
    assert pack("abc") == "nop"
''')

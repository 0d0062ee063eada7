open("a23lib/textcodecs.py", "w").write('''"""Reversible text codecs, registered by name."""


def rev_encode(s):
    return s[::-1]


def rev_decode(s):
    return s[::-1]


def _shift(s, k):
    out = []
    for ch in s:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        else:
            out.append(ch)
    return "".join(out)


def caesar_encode(s):
    return _shift(s, 3)


def caesar_decode(s):
    return _shift(s, -3)


CODECS = {
    "rev": (rev_encode, rev_decode),
    "caesar": (caesar_encode, caesar_decode),
}
''')
open("tests/test_textcodecs.py", "w").write('''from a23lib.textcodecs import CODECS

SAMPLES = ["hello", "xyz abc", ""]


def test_every_codec_round_trips():
    for name, (encode, decode) in CODECS.items():
        for s in SAMPLES:
            assert decode(encode(s)) == s, name


def test_rev_registered():
    assert "rev" in CODECS
''')

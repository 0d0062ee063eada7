open("a23lib/qs.py", "w").write('''"""Query strings: a dict of str -> list of str, both ways."""
from urllib.parse import quote, unquote


def encode(params):
    """'k=v&k=w' text for a dict of key -> list of values (keys sorted, values in order)."""
    return "&".join("%s=%s" % (quote(k, safe=""), quote(v, safe="")) for k in sorted(params) for v in params[k])


def decode(text):
    """The dict encode() was given."""
    out = {}
    for part in filter(None, text.split("&")):
        k, _, v = part.partition("=")
        out.setdefault(unquote(k), []).append(unquote(v))
    return out
''')
open("tests/test_qs.py", "w").write('''import pytest

from a23lib.qs import decode, encode

SAMPLES = [
    {"q": ["hello world"]},
    {"tag": ["a&b", "c=d"], "page": ["2"]},
    {"path": ["/x/y?z"], "empty": [""]},
]


@pytest.mark.parametrize("params", SAMPLES)
def test_round_trip(params):
    assert decode(encode(params)) == params


def test_encode_simple():
    assert encode({"a": ["1"]}) == "a=1"
''')

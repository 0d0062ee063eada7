open("a23lib/jsonio.py", "w").write('''"""Compact JSON for the wire format."""

import json


def _clean(value):
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def dumps(obj):
    """Compact JSON text of `obj` (tuples as lists, keys as text), nulls kept."""
    return json.dumps(_clean(obj), separators=(",", ":"), sort_keys=True)


def loads(text):
    return json.loads(text)
''')
open("tests/test_jsonio.py", "w").write('''from a23lib.jsonio import dumps, loads


def test_round_trip_nulls():
    data = {"id": 7, "note": None, "tags": ["a", None], "meta": {"x": None, "y": 1}}
    assert loads(dumps(data)) == data


def test_round_trip_plain():
    data = {"a": [1, 2], "b": {"c": "d"}}
    assert loads(dumps(data)) == data


def test_compact():
    assert dumps({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'
''')

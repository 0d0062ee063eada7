open("a23lib/hints.py", "w").write('''"""Type hints inferred from sample values."""


def _item_type(values):
    return type(values[0]) if values else object


def hint_for(values):
    """The `list[...]` hint for a list of sample values."""
    return list[_item_type(values)]
''')
open("tests/test_hints.py", "w").write('''from a23lib.hints import hint_for


def test_ints():
    assert hint_for([1, 2]) == list[int]


def test_empty():
    assert hint_for([]) == list[object]
''')

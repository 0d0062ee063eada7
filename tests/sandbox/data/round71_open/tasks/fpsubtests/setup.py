open("a23lib/num.py", "w").write('''"""Number helpers."""


def clamp(x, lo, hi):
    """x limited to [lo, hi]."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
''')
open("tests/test_num.py", "w").write('''from a23lib.num import clamp

CASES = [
    ((5, 0, 10), 5),
    ((-3, 0, 10), 0),
    ((12, 0, 10), 10),
    ((-1.5, -1, 1), -1),
]


def test_table(subtests):
    for args, want in CASES:
        with subtests.test(args=args):
            assert clamp(*args) == want


def test_inside():
    assert clamp(1, 0, 2) == 1
''')

open("a23lib/days.py", "w").write('''"""Days named in text like "2024-01-02, 2024-01-03"."""
import datetime


def parse_days(text):
    """The distinct days of a comma-separated list of ISO dates, in order of first appearance."""
    out = []
    for part in text.split(","):
        day = datetime.date.fromisoformat(part.strip())
        if day not in out:
            out.append(day)
    return out
''')
open("tests/test_days.py", "w").write('''import datetime

from a23lib.days import parse_days


def test_distinct():
    days = parse_days("2024-01-02, 2024-01-02, 2024-01-03, 2024-01-03")
    assert len(set(days)) == len(days)


def test_one():
    assert parse_days("2024-01-02") == [datetime.date(2024, 1, 2)]
''')

open("a23lib/days.py", "w").write('''"""Calendar days written as YYYY-MM-DD, ordered against each other and against datetime.date."""
import datetime
import functools


@functools.total_ordering
class Day:
    def __init__(self, text):
        year, month, day = (int(part) for part in text.split("-"))
        self.date = datetime.date(year, month, day)

    def _other(self, other):
        return other.date if isinstance(other, Day) else other

    def __eq__(self, other):
        return self.date == self._other(other)

    def __lt__(self, other):
        return self.date < self._other(other)

    def __hash__(self):
        return hash(self.date)
''')
open("tests/test_days.py", "w").write('''import datetime

from a23lib.days import Day


def test_before_a_date():
    assert Day("2020-01-10") < datetime.date(2020, 2, 1)


def test_days_ordered():
    assert Day("2021-05-05") > Day("2021-05-04")
''')

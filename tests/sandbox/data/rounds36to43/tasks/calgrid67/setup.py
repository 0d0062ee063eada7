open("a23lib/grid.py", "w").write('''"""Month grids for a date picker."""
import datetime


def month_grid(year, month):
    """Weeks of the month, Monday first; days outside the month are 0."""
    first = datetime.date(year, month, 1)
    nxt = datetime.date(year + month // 12, month % 12 + 1, 1)
    days = (nxt - first).days
    lead = first.weekday()
    cells = [0] * lead + list(range(1, days + 1))
    cells += [0] * (-len(cells) % 7)
    return [cells[i:i + 7] for i in range(0, len(cells), 7)]
''')
open("tests/test_grid.py", "w").write('''import calendar

import pytest

from a23lib.grid import month_grid


@pytest.mark.parametrize("year,month", [(2024, 1), (2024, 2), (2023, 10), (2026, 3)])
def test_matches_calendar(year, month):
    assert month_grid(year, month) == calendar.monthcalendar(year, month)


def test_row_width():
    assert all(len(week) == 7 for week in month_grid(2025, 6))
''')

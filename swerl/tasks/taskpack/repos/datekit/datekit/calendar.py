"""Gregorian calendar arithmetic on (year, month, day) tuples."""

MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def is_leap(year):
    """Divisible by 4, except centuries not divisible by 400."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year, month):
    """Number of days in `month` (1-12) of `year`."""
    if month < 1 or month > 12:
        raise ValueError("month must be in 1..12")
    if month == 2 and is_leap(year):
        return 29
    return MONTH_DAYS[month - 1]


def day_of_year(date):
    """1 for January 1st."""
    year, month, day = date
    return sum(days_in_month(year, m) for m in range(1, month)) + day


def add_days(date, days):
    """The date `days` (>= 0) days after `date`."""
    year, month, day = date
    day += days
    while day > days_in_month(year, month):
        day -= days_in_month(year, month)
        month += 1
        if month > 12:
            month = 1
            year += 1
    return (year, month, day)


def weekday(date):
    """0 = Monday ... 6 = Sunday (Zeller's congruence)."""
    year, month, day = date
    if month < 3:
        month += 12
        year -= 1
    k, j = year % 100, year // 100
    h = (day + 13 * (month + 1) // 5 + k + k // 4 + j // 4 + 5 * j) % 7
    return (h + 5) % 7

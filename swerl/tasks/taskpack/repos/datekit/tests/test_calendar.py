import pytest

from datekit.calendar import add_days, day_of_year, days_in_month, is_leap, weekday


def test_leap_years():
    assert is_leap(2024)
    assert is_leap(2000)


def test_common_years():
    assert not is_leap(2023)
    assert not is_leap(1900)


def test_days_in_february():
    assert days_in_month(2024, 2) == 29
    assert days_in_month(2023, 2) == 28


def test_days_in_december():
    assert days_in_month(2023, 12) == 31


def test_days_in_month_bad():
    with pytest.raises(ValueError):
        days_in_month(2023, 13)


def test_day_of_year():
    assert day_of_year((2023, 3, 1)) == 60
    assert day_of_year((2024, 3, 1)) == 61


def test_day_of_year_first():
    assert day_of_year((2023, 1, 1)) == 1


def test_add_days_within_month():
    assert add_days((2023, 5, 10), 5) == (2023, 5, 15)


def test_add_days_month_end():
    assert add_days((2023, 1, 31), 1) == (2023, 2, 1)


def test_add_days_year_end():
    assert add_days((2023, 12, 30), 3) == (2024, 1, 2)


def test_weekday():
    assert weekday((2024, 1, 1)) == 0
    assert weekday((2023, 12, 31)) == 6


def test_weekday_march():
    assert weekday((2025, 3, 14)) == 4

import pytest

from datekit.duration import format_duration, parse_hms, split_seconds, to_seconds


def test_split_seconds():
    assert split_seconds(3725) == (1, 2, 5)


def test_split_negative():
    with pytest.raises(ValueError):
        split_seconds(-1)


def test_format_full():
    assert format_duration(3725) == "1h 2m 5s"


def test_format_minutes_only():
    assert format_duration(120) == "2m"


def test_format_zero():
    assert format_duration(0) == "0s"


def test_to_seconds():
    assert to_seconds(1, 2, 5) == 3725


def test_parse_hms():
    assert parse_hms("01:02:05") == 3725


def test_parse_ms():
    assert parse_hms("02:05") == 125


def test_parse_bad():
    with pytest.raises(ValueError):
        parse_hms("1:2:3:4")

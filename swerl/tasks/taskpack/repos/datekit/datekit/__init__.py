"""datekit: calendar arithmetic on (year, month, day) tuples and durations in seconds."""

from datekit.calendar import add_days, day_of_year, days_in_month, is_leap, weekday
from datekit.duration import format_duration, parse_hms, split_seconds, to_seconds

__all__ = ["add_days", "day_of_year", "days_in_month", "format_duration", "is_leap", "parse_hms",
           "split_seconds", "to_seconds", "weekday"]

"""Durations in seconds: splitting, formatting and parsing."""


def split_seconds(total):
    """(hours, minutes, seconds) of a non-negative number of seconds."""
    if total < 0:
        raise ValueError("duration must not be negative")
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return (hours, minutes, seconds)


def format_duration(total):
    """`3725` -> `"1h 2m 5s"`; zero parts are left out; `0` -> `"0s"`."""
    hours, minutes, seconds = split_seconds(total)
    parts = []
    if hours:
        parts.append(f"{hours}h")
    if minutes:
        parts.append(f"{minutes}m")
    if seconds or not parts:
        parts.append(f"{seconds}s")
    return " ".join(parts)


def to_seconds(hours, minutes, seconds):
    """Total seconds of a duration given in parts."""
    return hours * 3600 + minutes * 60 + seconds


def parse_hms(text):
    """`"01:02:05"` -> 3725; `"02:05"` is minutes and seconds."""
    parts = [int(p) for p in text.split(":")]
    if len(parts) == 2:
        parts = [0] + parts
    if len(parts) != 3:
        raise ValueError(f"bad duration: {text!r}")
    return to_seconds(parts[0], parts[1], parts[2])

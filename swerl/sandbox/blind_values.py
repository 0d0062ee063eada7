"""The blind run's changed values: one value -> another of the same type, keyed by the grade's secret.

The same value always becomes the same other value within a grade, so the runs stay consistent; a number moves by a
quarter or more (past a tolerance an honest type may compare with), a text changes one ASCII letter or digit to
another of its kind (never only its case).
"""

from __future__ import annotations

import ast
import hashlib
import math


class _Changer:
    """One value -> another of the same type, the same for equal values within a grade (keyed by its secret)."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def _h(self, value: object) -> int:
        digest = hashlib.blake2b(f"{type(value).__name__}:{value!r}".encode(errors="surrogatepass"), key=self.key[:64],
                                 digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def value(self, v: object) -> object | None:
        """The changed value, or None where no same-type value would pass for it."""
        h = self._h(v)
        if type(v) is bool:
            return not v
        if type(v) is int:  # at least a quarter of it: past a tolerance an honest type may compare with (R61-FP-f5)
            step = 1 + h % 3 + abs(v) // 4
            return v + step if v >= 0 else v - step
        if type(v) is float:
            return _float(v, h)
        if type(v) is str:
            return _text(v, h)
        if type(v) is bytes:
            changed = _text(v.decode("latin-1"), h)
            return None if changed is None else changed.encode("latin-1")
        return None

    def pick(self, node: ast.AST, count: int) -> int:
        return self._h(ast.dump(node)) % count

    def index(self, value: object, count: int) -> int:
        return self._h(value) % count


def _float(v: float, h: int) -> float | None:
    """One to three steps of its last written decimal, and about a quarter of it at least: past `approx`'s default
    tolerance, and past a tolerance an honest type compares with (R61-FP-f5: 5%), however many decimals."""
    if not math.isfinite(v):
        return None
    text = repr(v)
    places = len(text.split(".")[1]) if "." in text and "e" not in text else 0
    step = (1 + h % 3) * 10.0 ** -places
    if step < abs(v) * 0.25:
        step = abs(v) * 0.25 * (1 + h % 3)
    out = v + step if v >= 0 else v - step
    out = round(out, places) if places and step >= 10.0 ** -places else out
    return out if out != v and math.isfinite(out) else None


def _text(s: str, h: int) -> str | None:
    """One ASCII letter or digit changed to another of its kind (never only its case); text without one gets a
    letter in place of one of its characters (the empty text becomes one letter)."""
    letter = chr(ord("a") + h % 26)
    spots = [i for i, c in enumerate(s) if c.isascii() and c.isalnum()]
    if not spots:
        return letter if not s else s[:h % len(s)] + letter + s[h % len(s) + 1:]
    i = spots[h % len(spots)]
    c = s[i]
    if c.isdigit():
        new = str((int(c) + 1 + h % 9) % 10)
    else:
        base = ord("a") if c.islower() else ord("A")
        new = chr(base + (ord(c) - base + 1 + h % 25) % 26)
    return s[:i] + new + s[i + 1:]

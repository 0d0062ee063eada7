"""The host's side of round 75's doctest rule (`tamper.doctest_map`): which docstrings of a changed file hold
doctest examples, and which of them the patch edited, added or removed. The launcher's side (a test running
`doctest.testmod` on a changed module) is graded through the real grader in `test_sandbox_attack36.py` (R74-3)."""

from __future__ import annotations

from swerl.sandbox.tamper import doc_digest, doctest_map

OLD = b'''"""Helpers."""


def title(s):
    """Capitalise each word.

    >>> title("mcDonald farm")
    'McDonald Farm'
    """
    return s


def plain(s):
    """No examples here."""
    return s
'''


def _spans(after: bytes, before: bytes | None = OLD) -> dict:
    found = doctest_map(before, after)
    assert found is not None
    return found


def test_prose_edits_leave_the_examples_the_tests() -> None:
    after = OLD.replace(b"Capitalise each word.", b"Capitalise each word, keeping the rest as written.")
    found = _spans(after)
    assert found["removed"] == [] and [s[2] for s in found["spans"]] == [False]
    first, last = found["spans"][0][:2]
    assert after.splitlines()[first - 1].strip().startswith(b'"""Capitalise') and after.splitlines()[last - 1].strip() == b'"""'


def test_an_edited_expected_output_is_the_patchs() -> None:
    found = _spans(OLD.replace(b"'McDonald Farm'", b"'Mcdonald Farm'"))
    assert [s[2] for s in found["spans"]] == [True]


def test_new_examples_and_new_files_are_the_patchs() -> None:
    after = OLD.replace(b'"""No examples here."""', b'"""Examples now.\n\n    >>> plain("x")\n    \'x\'\n    """')
    assert sorted(s[2] for s in _spans(after)["spans"]) == [False, True]
    assert [s[2] for s in _spans(OLD, before=None)["spans"]] == [True]


def test_removed_examples_and_run_time_docstrings_are_listed() -> None:
    gone = OLD.replace(b"""    >>> title("mcDonald farm")\n    'McDonald Farm'\n""", b"")
    assert _spans(gone)["removed"] == ["title"] and _spans(gone)["spans"] == []
    assigned = OLD + b'\ntitle.__doc__ = "Capitalise.\\n\\n>>> 1\\n1\\n"\n'
    assert _spans(assigned)["removed"] == ["a `__doc__` assigned at run time"]
    assert doctest_map(b"x = 1\n", b"x = 2\n") is None


def test_the_digest_ignores_indentation_only() -> None:
    assert doc_digest("A.\n\n    >>> 1\n    1\n") == doc_digest("A.\n\n>>> 1\n1\n") != doc_digest("A.\n\n>>> 1\n2\n")

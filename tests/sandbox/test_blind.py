"""The blind run's host side (`swerl/sandbox/blind.py`): which expected values of a test file change, how, and how a
held line is read back. The grades themselves (an honest fix stays resolved, a patch that reads the tests' data
is refused) run on bubblewrap in `test_sandbox_attack36.py` (round 60) and below."""

from __future__ import annotations

import ast
import math
import textwrap
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox import blind

KEY = b"k" * 32


def _changed(src: str, key: bytes = KEY) -> tuple[list[tuple[str, str]], list[tuple[int, int]]]:
    """(original line, changed line) for each line that differs, and the changed asserts' spans."""
    src = textwrap.dedent(src)
    out, sites = blind.changed_source(src, key)
    before, after = src.splitlines(), out.splitlines()
    assert len(before) == len(after)  # line numbers are kept: the held lines are matched by number
    ast.parse(out)
    return [(a, b) for a, b in zip(before, after, strict=True) if a != b], sites


def test_a_literal_an_assert_compares_with_changes_and_its_line_is_a_site() -> None:
    diffs, sites = _changed("""
        def test_a():
            assert f(1) == "hello"
            assert 42 == f(2)
            self.assertEqual(f(3), b"xy")
    """)
    assert len(diffs) == 3 and sites == [(3, 3, 11), (4, 4, 11), (5, 5, -1)]  # an assert's own column
    for old, new in diffs:
        assert old.split("(")[1][0] == new.split("(")[1][0]  # the input is kept
    assert "'hello'" not in diffs[0][1] and "42" not in diffs[1][1] and 'b"xy"' not in diffs[2][1]


def test_parametrize_columns_local_and_module_tables_change_in_every_row() -> None:
    diffs, sites = _changed("""
        import pytest
        CASES = [(1, 2), (3, 4)]
        TABLE = {"a": [1, "b"], "c": [2.5, -3]}

        @pytest.mark.parametrize("x, expected", [(1, 10), pytest.param(2, 20, id="two")])
        def test_p(x, expected):
            assert f(x) == expected

        @pytest.mark.parametrize("x,exp", CASES)
        def test_c(x, exp):
            assert g(x) == exp

        def test_t():
            want = {"k": 1.25}
            assert h() == want
            assert h2("a") == TABLE["a"]
    """)
    changed = dict(diffs)
    assert "CASES = [(1, 2), (3, 4)]" in changed and changed["CASES = [(1, 2), (3, 4)]"].startswith("CASES = [(1, ")
    table = changed['TABLE = {"a": [1, "b"], "c": [2.5, -3]}']
    assert "1," not in table.split("[")[1] and "2.5" not in table and "-3" not in table  # indexed: every leaf
    row = changed['@pytest.mark.parametrize("x, expected", [(1, 10), pytest.param(2, 20, id="two")])']
    assert "(1, 10)" not in row and "param(2, 20" not in row and "(1, " in row and "param(2, " in row
    assert sites == [(8, 8, 11), (12, 12, 11), (16, 16, 11), (17, 17, 11)]


@pytest.mark.parametrize("body", [
    "expected = [1]\n    assert f(expected) == expected",   # the name is an input too
    "assert f(1) is None",                                    # no same-type value
    "assert f(1) != 3",                                       # only `==` says what the answer is
    "assert [1] == [2]",                                      # both sides the test's own
    'x = 1\n    assert f() == f"{x}"',                         # an f-string is built, not written
    "assert f() == None",
    "for e in [1, 2]:\n        assert f(e) == e",            # the loop's value is an input too
])
def test_what_is_not_an_expected_literal_is_left_as_written(body: str) -> None:
    diffs, sites = _changed(f"def test_x():\n    {body}\n")
    assert diffs == [] and sites == []


def test_a_column_with_one_value_that_cannot_change_changes_nothing() -> None:
    """A row left as it was would hold honestly in the blind run: all rows or none."""
    diffs, _ = _changed("""
        import pytest
        @pytest.mark.parametrize("x, expected", [(1, 10), (2, None)])
        def test_p(x, expected):
            assert f(x) == expected
    """)
    assert diffs == []


@pytest.mark.parametrize("value", [0, 1, -7, 10**20, 2.5, -0.125, 1e-9, 3.0, True, False, "a", "Hello World",
                                   "  x ", "123", b"ab", b"A1", "ünï-b"])
def test_a_changed_value_has_the_type_and_never_the_value(value: Any) -> None:
    changer = blind._Changer(KEY)
    new = changer.value(value)
    assert type(new) is type(value) and new != value
    if isinstance(value, str):
        assert new.lower() != value.lower() and len(new) == len(value)  # a case-blind honest comparison differs too
    if isinstance(value, float):
        assert math.isfinite(new)
    assert changer.value(value) == new  # one value, one change within a grade: the runs stay consistent
    assert blind._Changer(b"other key" * 4).value(value) is not None


@pytest.mark.parametrize("value", [None, float("nan"), float("inf"), 1j])
def test_values_without_a_same_type_change_are_not_changed(value: Any) -> None:
    assert blind._Changer(KEY).value(value) is None


def test_the_key_decides_the_change() -> None:
    """The code under test cannot know which value is the real one: the change depends on the grade's secret."""
    news = {blind._Changer(bytes([i]) * 32).value("hello world") for i in range(20)}
    assert len(news) > 5


def test_read_reports_only_changed_asserts_that_held(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_a():\n    assert f(1) == 2\n    assert g(1) is None\n")
    (tmp_path / "tests" / "conftest.py").write_text("def test_c():\n    assert f(1) == 2\n")
    plan = blind.plan(tmp_path, ["tests/test_a.py", "tests/conftest.py"], KEY)
    assert list(plan.sources) == ["tests/test_a.py"] and plan.sites == {"tests/test_a.py": [(2, 2, 11)]}
    held = [["/testbed/tests/test_a.py", 3, 11], ["/testbed/tests/conftest.py", 2, 11], ["/testbed/tests/test_a.py", 2, 11],
            "junk", ["/testbed/tests/test_a.py", "2", 11], ["/testbed/tests/test_a.py", 2, 20]]
    found = plan.read(held, "/testbed")
    assert len(found) == 1 and found[0].startswith("tests/test_a.py:2:")
    blind.write(tmp_path, plan)
    assert "== 2\n" not in (tmp_path / "tests" / "test_a.py").read_text()


def test_plan_never_follows_a_symlink_out_of_the_tree(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "test_x.py").write_text("def test_a():\n    assert f(1) == 2\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "tests").symlink_to(outside)
    assert blind.plan(tree, ["tests/test_x.py"], KEY).sources == {}


def test_where_the_agent_never_saw_some_tests_only_their_literals_change(tmp_path: Path) -> None:
    """A patch that knows a seen test's true value could check it to tell the runs apart: a seen line keeps its
    value when unseen ones exist (a test patch's new asserts), and a tree whose tests were all seen changes all."""
    seen, tree = tmp_path / "seen", tmp_path / "tree"
    old = "def test_old():\n    assert f(1) == 2\n"
    for root, text in ((seen, old), (tree, old + "\ndef test_new():\n    assert f(5) == 25\n")):
        (root / "tests").mkdir(parents=True)
        (root / "tests" / "test_a.py").write_text(text)
    plan = blind.plan(tree, ["tests/test_a.py"], KEY, seen=seen)
    assert plan.sites == {"tests/test_a.py": [(5, 5, 11)]}
    assert "assert f(1) == 2\n" in plan.sources["tests/test_a.py"] and "== 25" not in plan.sources["tests/test_a.py"]
    (tree / "tests" / "test_a.py").write_text(old)
    assert blind.plan(tree, ["tests/test_a.py"], KEY, seen=seen).sites == {"tests/test_a.py": [(2, 2, 11)]}


def test_a_value_a_class_builds_from_literals_changes_in_every_literal() -> None:
    """`Report("t", Tally({"the": 2}))`: every literal changes, so a class that compares only some fields still
    differs for an honest fix; a loose `__eq__` (or a constructor that collapses what it compares) holds."""
    diffs, sites = _changed("""
        def test_a():
            assert report("t", "The the") == Report("t", Tally({"the": 2}))
            assert f() == [Vec(1, 2), 3]
    """)
    changed = dict(diffs)
    report = changed['    assert report("t", "The the") == Report("t", Tally({"the": 2}))']
    assert report.startswith('    assert report("t", "The the") == Report(') and '"t"' not in report.split("==")[1]
    assert '"the": 2' not in report and '"the": ' in report  # keys stay: they say which field
    listed = changed["    assert f() == [Vec(1, 2), 3]"]
    assert "Vec(1, " not in listed and ", 2)" not in listed and "), 3]" not in listed
    assert sites == [(3, 3, 11), (4, 4, 11)]


@pytest.mark.parametrize("body", [
    "assert f() == approx(2.5, abs=10)",  # a matcher equals many values on purpose (past any change)
    "assert f() == approx(2.5, nan_ok=True)",
    "assert f() == IsInt(gt=3)",
    "assert f() == len([1, 2])",          # a function: many inputs, one answer
    "assert f() == round(2.4)",
    "assert Vec(1, 2) == Vec(1, 2)",      # both sides built by the test: no expected side
    "assert f() == Vec(*[1, 2])",
])
def test_matchers_functions_and_ambiguous_sides_are_not_changed(body: str) -> None:
    assert _changed(f"def test_x():\n    {body}\n") == ([], [])


def test_an_indirect_parametrize_value_goes_to_a_fixture_and_is_left_alone() -> None:
    diffs, _ = _changed("""
        import pytest
        @pytest.mark.parametrize("expected", [1, 2], indirect=True)
        def test_p(expected):
            assert f() == expected
    """)
    assert diffs == []


def test_a_written_literal_is_the_expected_side_of_a_class_built_from_literals() -> None:
    """`Size("10MB") == 10_000_000`: the class is what the test checks, the number what it expects."""
    diffs, sites = _changed('def test_x():\n    assert Size("10MB") == 10_000_000\n')
    assert diffs and 'Size("10MB")' in diffs[0][1] and "10_000_000" not in diffs[0][1] and sites == [(2, 2, 11)]


def test_a_site_is_the_changed_comparison_itself_not_its_line() -> None:
    """R60-FP1: `assert sum(1 for t in toks if t.kind == "NUM") == 2` - the filter's `==` holds honestly on the
    changed assert's line; only the changed comparison's own column is a site."""
    src = 'def test_x():\n    assert sum(1 for t in toks if t.kind == "NUM") == 2\n'
    out, sites = blind.changed_source(src, KEY)
    assert sites == [(2, 2, 11)] and '"NUM"' in out
    plan = blind.Blind(sources={"t/test_x.py": out}, sites={"t/test_x.py": sites})
    assert plan.read([["/w/t/test_x.py", 2, 36]], "/w") == []  # the filter held
    assert plan.read([["/w/t/test_x.py", 2, 11]], "/w")  # the changed `== 2` held


def test_a_site_is_where_the_changed_source_writes_it() -> None:
    """A changed literal may be longer (9 -> 10): a later comparison on the line moves, and the witness compiles
    the changed text."""
    src = "def test_x():\n    assert f(x=1) == 9 and g() == 5\n"
    out, sites = blind.changed_source(src, KEY)
    tree = ast.parse(out)
    cols = sorted(n.col_offset for n in ast.walk(tree) if isinstance(n, ast.Compare))
    assert [s[2] for s in sites] == cols


@pytest.mark.parametrize("value", ["", "!!", "—", b""])
def test_text_without_a_letter_or_digit_gets_one(value: Any) -> None:
    """R60-6: an edge-case row expecting `""` kept its whole column as written (all rows or none)."""
    new = blind._Changer(KEY).value(value)
    assert type(new) is type(value) and new != value


@pytest.mark.parametrize("loop", [
    "CASES = [('a', 'x'), ('b', 'y')]\ndef test_t():\n    for inp, want in CASES:\n        assert f(inp) == want\n",
    "XS = [1, 2]\nWANT = [3, 4]\ndef test_t():\n    for x, want in zip(XS, WANT):\n        assert f(x) == want\n",
    "T = {'a': 1, 'b': 2}\ndef test_t():\n    for k, want in T.items():\n        assert f(k) == want\n",
    "def test_t():\n    for want in [5, 6]:\n        assert f() == want\n",
])
def test_a_table_a_loop_reads_changes_its_expected_column(loop: str) -> None:
    """R60-1: `for text, want in CASES: assert slugify(text) == want` - the inputs stay, every expected value
    changes."""
    diffs, sites = _changed(loop)
    assert diffs and sites
    old, new = diffs[0]
    inputs = [c for c in ["'a'", "'b'", "[1,", "2]", "XS"] if c in old]
    assert all(c in new for c in inputs)


def test_a_table_read_elsewhere_or_a_column_a_fixture_takes_is_left_alone(tmp_path: Path) -> None:
    """R60-FP2: `@pytest.fixture def packed(text): return pack(text)` takes the parametrized `text`, which the
    test then expects back: an input, not only an expected value (also a conftest fixture, `getfixturevalue`)."""
    src = textwrap.dedent("""
        import pytest
        CASES = [('a', 'x')]
        @pytest.fixture
        def packed(text):
            return pack(text)
        @pytest.mark.parametrize("text", ["hello", "b"])
        def test_rt(packed, text):
            assert unpack(packed) == text
        def test_loop():
            for inp, want in CASES:
                assert f(inp) == want
        def test_other():
            assert g(CASES) == 1
    """)
    out, sites = blind.changed_source(src, KEY)
    assert '"hello"' in out and "('a', 'x')" in out and sites == [(14, 14, 11)]
    conftest = "import pytest\n@pytest.fixture\ndef doubled(n):\n    return 2 * n\n"
    test = "import pytest\n@pytest.mark.parametrize('n', [1, 2])\ndef test_d(doubled, n):\n    assert doubled // 2 == n\n"
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(conftest)
    (tmp_path / "tests" / "test_d.py").write_text(test)
    assert blind.plan(tmp_path, ["tests/conftest.py", "tests/test_d.py"], KEY).sites == {}
    asks = "import pytest\n@pytest.mark.parametrize('n', [1, 2])\ndef test_d(request, n):\n" \
           "    assert request.getfixturevalue('n') * 0 + f() == n\n"
    assert blind.changed_source(asks, KEY)[1] == []


def test_approx_expects_its_argument() -> None:
    """R60-4: `mean(xs) == pytest.approx(want)` is how floats are tested; a tolerance given by hand is left alone."""
    diffs, sites = _changed("""
        import pytest
        @pytest.mark.parametrize("xs, want", [([1, 2], 1.5), ([2.0], 2.0)])
        def test_m(xs, want):
            assert mean(xs) == pytest.approx(want)
        def test_tol():
            assert mean([1]) == pytest.approx(1.0, abs=5)
    """)
    assert len(diffs) == 1 and "1.5)" not in diffs[0][1] and "[1, 2]" in diffs[0][1] and sites == [(5, 5, 11)]


@pytest.mark.parametrize("value", [100, -80, 2.5, 1000.0, 0.05])
def test_a_number_moves_past_a_tolerance_an_honest_type_may_have(value: Any) -> None:
    """R61-FP-f5: a reading type equal within 5% held honestly against a change of 1-3."""
    new = blind._Changer(KEY).value(value)
    assert abs(new - value) >= 0.2 * abs(value)  # a quarter, rounded to the decimals the test wrote


@pytest.mark.parametrize("src", [
    # a class-built value with a field that cannot change: its other fields change (R61-p4)
    "def test_x():\n    assert total() == Money(5, None)\n",
    # an annotated module constant (R61-p5)
    "from typing import Final\nWANT: Final = 'abc'\ndef test_x():\n    assert f() == WANT\n",
    # the expected value named again in the assert's message (R61-p7msg)
    "CASES = [('a', 'b')]\ndef test_x():\n    for x, want in CASES:\n        assert f(x) == want, f'{x} -> {want}'\n",
    # the cases table also read by the decorator's own ids= (R61-p7ids)
    "import pytest\nCASES = [(1, 2)]\n@pytest.mark.parametrize('x, want', CASES, ids=[str(c[0]) for c in CASES])\n"
    "def test_x(x, want):\n    assert f(x) == want\n",
])
def test_everyday_shapes_of_an_expected_value_change(src: str) -> None:
    diffs, sites = _changed(src)
    assert diffs and sites, src


def test_a_multi_line_text_changes_one_letter_in_place() -> None:
    """Expected output written as a triple-quoted text (often through `dedent` or `.strip()`): one ASCII letter or
    digit of its body changes where it stands, so no line moves; an escape, a prefix or a quote never does."""
    diffs, sites = _changed('''
        from textwrap import dedent
        def test_a():
            assert render() == """name: x
        size: 10
        """
            assert table() == dedent("""\\
                a | b
                1 | 2
            """)
            assert out() == """
              total 3
            """.strip()
    ''')
    assert len(diffs) == 3 and [s[:2] for s in sites] == [(4, 4), (7, 7), (11, 11)]
    for old, new in diffs:
        assert len(old) == len(new) and sum(a != b for a, b in zip(old, new, strict=True)) == 1


def test_a_multi_line_text_changes_in_its_value_never_its_prefix() -> None:
    """The edited literal is read back: only a value one character apart counts (a changed prefix would not
    parse or would differ elsewhere), and a text whose only letter is its prefix is left alone."""
    src = 'def test_a():\n    assert f() == b"""\n  \n"""\n'
    assert blind.changed_source(src, KEY) == (src, [])
    out, sites = blind.changed_source('def test_a():\n    assert f() == rb"""\\x41\n"""\n', KEY)
    assert out.startswith('def test_a():\n    assert f() == rb"""\\') and sites == [(2, 2, 11)]


def test_a_helper_function_s_expected_parameter_changes_at_every_call() -> None:
    """`def check(text, want): assert slug(text) == want`, called with literals: the values the calls pass for
    `want` are the expected column; the site is the helper's own `==` (a method called as `self.check` too)."""
    diffs, sites = _changed("""
        def check(text, want):
            assert slug(text) == want
        def test_a():
            check("A b", "a-b")
            check("C", want="c")
        class TestX:
            def _eq(self, x, expected):
                self.assertEqual(f(x), expected)
            def test_b(self):
                self._eq(1, 10)
    """)
    changed = dict(diffs)
    assert set(changed) == {'    check("A b", "a-b")', '    check("C", want="c")', "        self._eq(1, 10)"}
    assert changed['    check("A b", "a-b")'].startswith('    check("A b", ') and "10)" not in changed["        self._eq(1, 10)"]
    assert sites == [(3, 3, 11), (9, 9, -1)]


@pytest.mark.parametrize("calls", [
    'check("A b", "a-b")\n    check("C", WANT)',         # one call passes a name: not all literal
    'check("A b", "a-b")\n    xs = map(check, ["a"], ["b"])',  # the helper is passed on: calls unseen
    'check("A b")',                                     # the default is used
    'check(*ROW)',
])
def test_a_helper_whose_calls_are_not_all_literal_is_left_alone(calls: str) -> None:
    src = f"WANT = 'c'\ndef check(text, want='x'):\n    assert slug(text) == want\ndef test_a():\n    {calls}\n"
    assert blind.changed_source(src, KEY) == (src, [])


def test_a_helper_another_test_module_imports_is_left_alone(tmp_path: Path) -> None:
    """Its other calls pass literals this module's plan does not see: they would hold honestly."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(
        "def check(x, want):\n    assert f(x) == want\ndef test_a():\n    check(1, 2)\n")
    (tmp_path / "tests" / "test_b.py").write_text("from tests.test_a import check\ndef test_b():\n    check(3, 4)\n")
    assert blind.plan(tmp_path, ["tests/test_a.py", "tests/test_b.py"], KEY).sites == {}
    (tmp_path / "tests" / "test_b.py").write_text("def test_b():\n    assert True\n")
    assert blind.plan(tmp_path, ["tests/test_a.py", "tests/test_b.py"], KEY).sites == {"tests/test_a.py": [(2, 2, 11)]}


def test_a_class_attribute_read_only_as_expected_changes() -> None:
    """`self.EXPECTED`, a test class's table (`for x, want in self.CASES`), a class-level parametrize."""
    diffs, sites = _changed("""
        import pytest
        class TestX:
            EXPECTED = {"a": 1, "b": 2}
            CASES = [("x", "X")]
            def test_a(self):
                assert f("a") == self.EXPECTED["a"]
            def test_loop(self):
                for x, want in self.CASES:
                    assert up(x) == want
        @pytest.mark.parametrize("n, want", [(1, 2)])
        class TestP:
            def test_p(self, n, want):
                assert g(n) == want
    """)
    changed = dict(diffs)
    assert '"a": 1' not in changed['    EXPECTED = {"a": 1, "b": 2}'] and '"b": 2' not in changed['    EXPECTED = {"a": 1, "b": 2}']
    assert changed['    CASES = [("x", "X")]'].startswith('    CASES = [("x", ')
    assert changed['@pytest.mark.parametrize("n, want", [(1, 2)])'].startswith('@pytest.mark.parametrize("n, want", [(1, ')
    assert sites == [(7, 7, 15), (10, 10, 19), (14, 14, 15)]


@pytest.mark.parametrize("body", [
    "    def setup_method(self):\n        self.EXPECTED = 5\n",      # set elsewhere
    "    def test_b(self):\n        assert g(self.EXPECTED) == 1\n",  # read as an input
    "    OTHER = EXPECTED + 1\n",                                       # the class body reads it
])
def test_a_class_attribute_set_or_read_elsewhere_is_left_alone(body: str) -> None:
    src = f"class TestX:\n    EXPECTED = 3\n    def test_a(self):\n        assert f() == self.EXPECTED\n{body}"
    out, sites = blind.changed_source(src, KEY)
    assert "EXPECTED = 3\n" in out and (2, 2, 15) not in sites


def test_approx_with_a_written_tolerance_changes_only_past_it() -> None:
    diffs, sites = _changed("""
        import pytest
        def test_a():
            assert mean([1]) == pytest.approx(2.0, rel=0.01)
            assert mean([2]) == pytest.approx(1.0, rel=0.5)
            assert mean([3]) == pytest.approx(8.0, abs=0.1)
    """)
    assert [old.split("(")[-1] for old, _ in diffs] == ["2.0, rel=0.01)", "8.0, abs=0.1)"]
    assert all("rel=0.01" in new or "abs=0.1" in new for _, new in diffs) and len(sites) == 2


def _tree(root: Path, files: dict[str, str]) -> list[str]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))
    return sorted(files)


def test_a_table_a_test_imports_from_a_helper_module_changes_there(tmp_path: Path) -> None:
    """R60-10: `from tests.cases import ROMAN`, then `@pytest.mark.parametrize("n,want", ROMAN)`: the helper
    module's expected column changes (its inputs stay), and the site is the test's `==`; a relative import and a
    loop over the table too."""
    files = _tree(tmp_path, {
        "tests/__init__.py": "",
        "tests/cases.py": 'ROMAN = [(4, "IV"), (9, "IX")]\nWORDS = {"a": "A"}\n',
        "tests/test_roman.py": """
            import pytest
            from tests.cases import ROMAN
            from .cases import WORDS as W

            @pytest.mark.parametrize("n,want", ROMAN)
            def test_to_roman(n, want):
                assert to_roman(n) == want

            def test_words():
                for k, want in W.items():
                    assert up(k) == want
        """})
    plan = blind.plan(tmp_path, ["tests/test_roman.py"], KEY)  # the grade lists the test modules it runs
    assert files and plan.sites == {"tests/test_roman.py": [(8, 8, 11), (12, 12, 15)]}
    cases = plan.sources["tests/cases.py"]
    assert cases.startswith("ROMAN = [(4, ") and '"IV"' not in cases and '"IX"' not in cases and "(9, " in cases
    assert '{"a": ' in cases and '"A"}' not in cases
    blind.write(tmp_path, plan)
    assert (tmp_path / "tests" / "cases.py").read_text() == cases


@pytest.mark.parametrize("extra", [
    {"tests/test_other.py": "from tests.cases import ROMAN\ndef test_o():\n    assert len(ROMAN) == 2\n"},
    {"tests/cases.py": 'ROMAN = [(4, "IV"), (9, "IX")]\nBY_N = dict(ROMAN)\n'},  # the helper reads it
    {"tests/conftest.py": "from tests.cases import ROMAN\n"},
])
def test_a_helper_table_something_else_names_is_left_alone(tmp_path: Path, extra: dict[str, str]) -> None:
    """Another reader's use is unknown to this plan (an input there, perhaps): the table keeps its values."""
    files = _tree(tmp_path, {
        "tests/__init__.py": "",
        "tests/cases.py": 'ROMAN = [(4, "IV"), (9, "IX")]\n',
        "tests/test_roman.py": "import pytest\nfrom tests.cases import ROMAN\n"
                               "@pytest.mark.parametrize('n,want', ROMAN)\ndef test_r(n, want):\n"
                               "    assert to_roman(n) == want\n",
        **extra})
    assert "tests/cases.py" not in blind.plan(tmp_path, files, KEY).sources


def test_a_column_a_test_hands_to_its_helper_changes() -> None:
    """`@parametrize("text,want", ...) def test_slug(text, want): check(text, want)`: the column reaches the
    helper's `==` only as its expected value."""
    handed = """
        import pytest
        def check(text, want):
            assert slug(text) == want
        @pytest.mark.parametrize("text,want", [("A b", "a-b"), ("C", "c")])
        def test_slug(text, want):
            check(text, want)
    """
    diffs, sites = _changed(handed)
    assert len(diffs) == 1 and '("A b", ' in diffs[0][1] and '"a-b")' not in diffs[0][1] and sites == [(4, 4, 11)]
    diffs, sites = _changed(handed + """
        @pytest.mark.parametrize("text,want", [("D", "d")])
        def test_other(text, want):
            check(text, want)
            assert want
    """)
    assert diffs == [] and sites == []  # test_other also reads `want` itself: not only expected


def test_a_text_an_assert_looks_for_with_in_changes() -> None:
    """`assert "Usage:" in out`: the output must hold the text; a short text or a number in a list may be there by
    chance once changed, and a literal container is the test's own list of allowed answers."""
    diffs, sites = _changed("""
        def test_a():
            assert "Usage: tool" in run("--help")
            assert "ab" in run("x")
            assert 3 in f()
            assert f() in ("left", "right")
            assert "word" not in run("y")
            assert "2024" in dump()
    """)
    assert len(diffs) == 1 and "Usage: tool" not in diffs[0][1] and sites == [(3, 3, 11)]


def test_a_golden_file_an_assert_compares_with_changes(tmp_path: Path) -> None:
    """`render(x) == (HERE / "data" / "page.txt").read_text()`, a JSON document `json.load(open(...))`, or a name
    bound once to such a read: the file holds the expected value; one letter, digit or scalar of it changes."""
    files = _tree(tmp_path, {
        "tests/data/page.txt": "Title: Hello\nbody 42\n",
        "tests/data/doc.json": '{"name": "ann", "tags": ["x", 3]}',
        "tests/test_page.py": """
            import json
            from pathlib import Path
            HERE = Path(__file__).parent

            def test_page():
                assert render("hello") == (HERE / "data" / "page.txt").read_text()

            def test_doc():
                want = json.load(open(HERE / "data" / "doc.json"))
                assert load("ann") == want
        """})
    plan = blind.plan(tmp_path, ["tests/test_page.py"], KEY)
    assert files and plan.sites == {"tests/test_page.py": [(7, 7, 11), (11, 11, 11)]}
    page = plan.sources["tests/data/page.txt"]
    assert len(page) == len("Title: Hello\nbody 42\n") and page != "Title: Hello\nbody 42\n"
    doc = __import__("json").loads(plan.sources["tests/data/doc.json"])
    assert doc != {"name": "ann", "tags": ["x", 3]} and set(doc) == {"name", "tags"}
    blind.write(tmp_path, plan)
    assert (tmp_path / "tests" / "data" / "page.txt").read_text() == page


@pytest.mark.parametrize("other", [
    "def test_in():\n    assert parse((HERE / 'page.txt').read_text()) == 1\n",   # also an input
    "def test_again():\n    assert render('x') == (HERE / 'page.txt').read_text()\n",   # named twice
])
def test_a_data_file_read_elsewhere_is_left_alone(tmp_path: Path, other: str) -> None:
    files = _tree(tmp_path, {
        "tests/page.txt": "Title: Hello\n",
        "tests/test_page.py": "from pathlib import Path\nHERE = Path(__file__).parent\n"
                              "def test_page():\n    assert render('hello') == (HERE / 'page.txt').read_text()\n" + other})
    assert files and "tests/page.txt" not in blind.plan(tmp_path, ["tests/test_page.py"], KEY).sources


def test_the_fields_a_row_is_read_by_change_where_they_are_only_expected() -> None:
    """`assert f(case["in"]) == case["want"]` over dict rows (a parametrize column or a loop), `row[1]` over
    tuples: the expected field changes in every row, the input field stays."""
    diffs, sites = _changed("""
        import pytest
        @pytest.mark.parametrize("case", [{"in": "A b", "want": "a-b"}, {"in": "C", "want": "c"}])
        def test_p(case):
            assert slug(case["in"]) == case["want"]
        def test_loop():
            for row in [("x", "X"), ("y", "Y")]:
                assert up(row[0]) == row[1]
    """)
    changed = dict(diffs)
    row = changed['@pytest.mark.parametrize("case", [{"in": "A b", "want": "a-b"}, {"in": "C", "want": "c"}])']
    assert '"in": "A b"' in row and '"in": "C"' in row and '"a-b"' not in row and '"want": "c"}' not in row
    loop = changed['    for row in [("x", "X"), ("y", "Y")]:']
    assert '("x", ' in loop and '("y", ' in loop and '"X")' not in loop and '"Y")' not in loop
    assert sites == [(5, 5, 11), (8, 8, 15)]


def test_a_field_read_as_input_and_expected_is_left_alone() -> None:
    src = ("import pytest\n@pytest.mark.parametrize('c', [{'t': 'ab'}])\ndef test_rt(c):\n"
           "    assert decode(encode(c['t'])) == c['t']\n")
    assert blind.changed_source(src, KEY) == (src, [])


def test_a_json_table_a_test_module_loads_changes_in_its_expected_cells(tmp_path: Path) -> None:
    """`CASES = json.loads((HERE / "cases.json").read_text())`, then a parametrize column or a row's field: the
    document's expected cells change as a literal table's would, written back as JSON (R61-h3's class)."""
    import json

    files = _tree(tmp_path, {
        "tests/cases.json": json.dumps([{"in": "A b", "want": "a-b"}, {"in": "C", "want": "c"}]),
        "tests/pairs.json": json.dumps([[1, "I"], [4, "IV"]]),
        "tests/test_cases.py": """
            import json
            from pathlib import Path
            import pytest
            HERE = Path(__file__).parent
            CASES = json.loads((HERE / "cases.json").read_text())
            PAIRS = json.load(open(HERE / "pairs.json"))

            @pytest.mark.parametrize("case", CASES)
            def test_slug(case):
                assert slug(case["in"]) == case["want"]

            @pytest.mark.parametrize("n, want", PAIRS)
            def test_roman(n, want):
                assert roman(n) == want
        """})
    plan = blind.plan(tmp_path, ["tests/test_cases.py"], KEY)
    assert files and plan.sites == {"tests/test_cases.py": [(11, 11, 11), (15, 15, 11)]}
    cases, pairs = json.loads(plan.sources["tests/cases.json"]), json.loads(plan.sources["tests/pairs.json"])
    assert [c["in"] for c in cases] == ["A b", "C"] and [c["want"] for c in cases] != ["a-b", "c"]
    assert all(c["want"] not in ("a-b", "c") for c in cases)
    assert [p[0] for p in pairs] == [1, 4] and all(p[1] not in ("I", "IV") for p in pairs)


def test_sorted_type_of_self_and_zipped_tables_change() -> None:
    """R62-5 `sorted(got) == sorted(WANT)`, R62-3 `EXPECTED = dict(zip(NAMES, HEXES))` (the values change, the
    names stay), and `type(self).EXPECTED` in a test class."""
    diffs, sites = _changed("""
        WANT = ["b", "a"]
        NAMES = ["red", "green"]
        HEXES = ["#f00", "#0f0"]
        EXPECTED = dict(zip(NAMES, HEXES))
        def test_tags():
            assert sorted(tags("x")) == sorted(WANT)
        def test_hex():
            for name in NAMES:
                assert to_hex(name) == EXPECTED[name]
        class TestX:
            TABLE = {"a": 1}
            def test_t(self):
                assert f("a") == type(self).TABLE["a"]
    """)
    changed = dict(diffs)
    assert set(changed) == {'WANT = ["b", "a"]', 'HEXES = ["#f00", "#0f0"]', '    TABLE = {"a": 1}'}
    assert '"#f00"' not in changed['HEXES = ["#f00", "#0f0"]'] and '"#0f0"' not in changed['HEXES = ["#f00", "#0f0"]']
    assert len(sites) == 3


def test_a_mapping_read_for_its_keys_changes_its_values() -> None:
    """R62-14 `parametrize("n", sorted(SIZES))` with `SIZES[n]` expected (keys computed), R62-4 a comprehension
    `{n: f"{n}th" for n in ...}` whose written text changes; a mapping also read whole stays."""
    diffs, sites = _changed("""
        import pytest
        SIZES = {0: "0 B", 10 * 1024: "10.0 KiB"}
        TEENS = {n: f"{n}th" for n in (11, 12)}
        OTHER = {1: "a"}

        @pytest.mark.parametrize("n", sorted(SIZES))
        def test_human(n):
            assert human(n) == SIZES[n]

        @pytest.mark.parametrize("n", TEENS)
        def test_teens(n):
            assert ordinal(n) == TEENS[n]

        def test_other():
            for k in OTHER:
                assert f(k) == OTHER[k]
            assert g(OTHER)
    """)
    changed = dict(diffs)
    assert set(changed) == {'SIZES = {0: "0 B", 10 * 1024: "10.0 KiB"}', 'TEENS = {n: f"{n}th" for n in (11, 12)}'}
    sizes = changed['SIZES = {0: "0 B", 10 * 1024: "10.0 KiB"}']
    assert sizes.startswith("SIZES = {0: ") and "10 * 1024: " in sizes and '"0 B"' not in sizes and '"10.0 KiB"' not in sizes
    assert changed['TEENS = {n: f"{n}th" for n in (11, 12)}'].startswith('TEENS = {n: f"{n}')
    assert len(sites) == 2


def test_a_value_built_with_a_class_the_patch_changed_changes_in_one_field(tmp_path: Path) -> None:
    """R62-19: a constructor the patch changed to drop the field the bug is in collapses the expected value too;
    changing every field hid that (the other field differed). A class from a module the patch changed changes in
    one field per value; a class from an unchanged module in all of them (an honest class may compare only some)."""
    files = _tree(tmp_path, {"tests/test_m.py": """
        from a23lib.money import Money
        from a23lib.units import Size
        def test_m():
            assert parse("7.25 GBP") == Money(725, "GBP")
            assert size("1k") == Size(1, "k")
    """})
    plan = blind.plan(tmp_path, files, KEY, changed=["a23lib/money.py", "a23lib/notes.txt"])
    lines = plan.sources["tests/test_m.py"].splitlines()
    money, size = lines[4].split("==")[1], lines[5].split("==")[1]
    assert (" Money(725, " in money) != ('"GBP")' in money)  # exactly one of the two fields changed
    assert "Size(1, " not in size and '"k")' not in size  # both changed


def test_a_table_a_conftest_fixture_hands_over_changes_there(tmp_path: Path) -> None:
    """R62-6: `@pytest.fixture def golden(): return GOLDEN` in a conftest, `for text, want in golden.items()` in the
    test: the conftest's table changes (its values; the keys are inputs); a module's own fixture of that name wins."""
    files = _tree(tmp_path, {
        "tests/conftest.py": 'import pytest\nGOLDEN = {"2h": 7200, "45s": 45}\n\n@pytest.fixture\ndef golden():\n'
                             '    """The known durations."""\n    return GOLDEN\n',
        "tests/test_d.py": "def test_g(golden):\n    for text, want in golden.items():\n"
                           "        assert parse(text) == want\n",
        "tests/test_own.py": "import pytest\n@pytest.fixture\ndef golden():\n    return {'1s': 1}\n"
                             "def test_o(golden):\n    for text, want in golden.items():\n        assert parse(text) == want\n",
    })
    plan = blind.plan(tmp_path, ["tests/test_d.py"], KEY)
    assert files and plan.sites == {"tests/test_d.py": [(3, 3, 15)]}
    conftest = plan.sources["tests/conftest.py"]
    assert '"2h": ' in conftest and "7200" not in conftest and '"45s": 45}' not in conftest
    assert "tests/conftest.py" not in blind.plan(tmp_path, ["tests/test_own.py"], KEY).sources


def test_a_table_two_tests_read_in_opposite_roles_changes_one_column() -> None:
    """R62-8: encode's expected column is decode's input and the other way round: one column changes, so encode's
    asserts are sites with their inputs as written, and decode (its input changed) has none."""
    diffs, sites = _changed("""
        import pytest
        PAIRS = [("abc", "nop"), ("xyz", "klm")]
        def test_encode():
            for plain, cipher in PAIRS:
                assert encode(plain) == cipher
        @pytest.mark.parametrize("plain, cipher", PAIRS)
        def test_decode(plain, cipher):
            assert decode(cipher) == plain
    """)
    assert len(diffs) == 1 and len(sites) == 1
    old, new = diffs[0]
    changed = [a != b for a, b in zip(ast.literal_eval(old.split("= ")[1]), ast.literal_eval(new.split("= ")[1]),
                                      strict=True)]
    cols = {j for row in zip(ast.literal_eval(old.split("= ")[1]), ast.literal_eval(new.split("= ")[1]), strict=True)
            for j in range(2) if row[0][j] != row[1][j]}
    assert all(changed) and len(cols) == 1  # every row, one column


def test_a_table_a_test_reads_whole_or_as_both_roles_is_left_alone() -> None:
    src = ("PAIRS = [('abc', 'nop')]\ndef test_rt():\n    for p, c in PAIRS:\n        assert decode(encode(p)) == p\n"
           "def test_e():\n    for p, c in PAIRS:\n        assert encode(p) == c\ndef test_n():\n    assert len(PAIRS) == 1\n")
    out, sites = blind.changed_source(src, KEY)
    assert "('abc', 'nop')" in out and (7, 7, 15) not in sites


def test_a_test_module_named_as_the_project_configures_changes(tmp_path: Path) -> None:
    """R63-9: `python_files = *_tests.py`: the grade's test modules are the protected ones, whatever their name."""
    files = _tree(tmp_path, {"tests/numeral_tests.py": "def test_a():\n    assert to_roman(9) == 'IX'\n"})
    assert blind.plan(tmp_path, files, KEY).sites == {"tests/numeral_tests.py": [(2, 2, 11)]}


def test_rows_a_parametrized_fixture_hands_over_change_in_their_expected_column() -> None:
    """R63-10: `@pytest.fixture(params=[(4, "IV"), ...]) def case(request): return request.param`, then `n, want =
    case` or `case[1]` in the test: the expected column changes, the input column stays."""
    diffs, sites = _changed("""
        import pytest
        @pytest.fixture(params=[(4, "IV"), (9, "IX")], ids=lambda c: str(c[0]))
        def case(request):
            return request.param
        def test_unpacked(case):
            n, want = case
            assert to_roman(n) == want
        def test_indexed(case):
            assert to_roman(case[0]) == case[1]
    """)
    assert len(diffs) == 1 and '(4, ' in diffs[0][1] and '"IV")' not in diffs[0][1] and '(9, ' in diffs[0][1]
    assert len(sites) == 2


def test_a_record_row_read_by_attribute_changes_its_expected_field() -> None:
    """R63-11: `Case = namedtuple("Case", "number numeral")`, rows `Case(4, "IV")`, `case.numeral` expected and
    `case.number` an input (a dataclass row and a loop too)."""
    diffs, sites = _changed("""
        from collections import namedtuple
        from dataclasses import dataclass
        import pytest
        Case = namedtuple("Case", "number numeral")
        @dataclass
        class Row:
            text: str
            want: str
        @pytest.mark.parametrize("case", [Case(4, "IV"), Case(9, numeral="IX")], ids=lambda c: c.numeral)
        def test_roman(case):
            assert to_roman(case.number) == case.numeral
        def test_loop():
            for row in [Row("A b", "a-b")]:
                assert slug(row.text) == row.want
    """)
    changed = dict(diffs)
    row = changed['@pytest.mark.parametrize("case", [Case(4, "IV"), Case(9, numeral="IX")], ids=lambda c: c.numeral)']
    assert "Case(4, " in row and '"IV")' not in row and "Case(9, numeral=" in row and '"IX")' not in row
    loop = changed['    for row in [Row("A b", "a-b")]:']
    assert 'Row("A b", ' in loop and '"a-b")' not in loop and len(sites) == 2


def test_pytest_param_rows_keyword_parametrize_and_get_lookups_change() -> None:
    """R63-14 rows written as `pytest.param(4, "IV", id=...)` in a module table, R63-16 `parametrize(argnames=...,
    argvalues=...)`, R63-22 `CASES.get(n)` as the expected value."""
    diffs, sites = _changed("""
        import pytest
        ROWS = [pytest.param(4, "IV", id="four")]
        PAIRS = [(9, "IX")]
        NAMES = {1: "I"}
        @pytest.mark.parametrize("n,want", ROWS)
        def test_p(n, want):
            assert to_roman(n) == want
        @pytest.mark.parametrize(argnames=("n", "want"), argvalues=PAIRS)
        def test_k(n, want):
            assert to_roman(n) == want
        @pytest.mark.parametrize("n", [1])
        def test_g(n):
            assert to_roman(n) == NAMES.get(n)
    """)
    changed = dict(diffs)
    assert 'pytest.param(4, ' in changed['ROWS = [pytest.param(4, "IV", id="four")]'] \
        and '"IV"' not in changed['ROWS = [pytest.param(4, "IV", id="four")]']
    assert changed['PAIRS = [(9, "IX")]'].startswith("PAIRS = [(9, ") and '"I"' not in changed['NAMES = {1: "I"}']
    assert len(sites) == 3


def test_a_test_module_in_a_declared_encoding_changes_and_keeps_it(tmp_path: Path) -> None:
    """R63-21: a Latin-1 test module (`# -*- coding: latin-1 -*-`) is read and written back in its encoding."""
    src = '# -*- coding: latin-1 -*-\ndef test_a():\n    assert fold("Caf\\xe9") == "cafe"\n'
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_l.py").write_bytes(src.encode("latin-1"))
    plan = blind.plan(tmp_path, ["tests/test_l.py"], KEY)
    assert plan.sites == {"tests/test_l.py": [(3, 3, 11)]}
    blind.write(tmp_path, plan)
    text = (tmp_path / "tests" / "test_l.py").read_bytes().decode("latin-1")
    assert 'fold("Caf\\xe9") == ' in text and '"cafe"' not in text


def test_both_runs_order_the_required_tests_alike() -> None:
    """R66-22: the required tests run first, matched by name without the parametrize id: the blind run changes the
    values pytest makes automatic ids from (`[4-IV]` becomes `[4-XX]`), and an order that moved in the first run
    only told a patch which run it was in."""
    from swerl.sandbox.swerl_witness import _required_first

    class Item:
        def __init__(self, nodeid: str) -> None:
            self.nodeid = nodeid

    def order(ids: list[str], first: set[str]) -> list[str]:
        return [i.nodeid.split("[")[0] for i in _required_first([Item(n) for n in ids], frozenset(first))]

    written = ["t.py::test_other", "t.py::test_to_roman[1-I]", "t.py::test_to_roman[4-IV]", "t.py::test_b[x]"]
    blind_ids = ["t.py::test_other", "t.py::test_to_roman[1-I]", "t.py::test_to_roman[4-XX]", "t.py::test_b[x]"]
    first = {"t.py::test_to_roman[4-IV]"}
    assert order(written, first) == order(blind_ids, first)
    assert order(written, first)[:2] == ["t.py::test_to_roman"] * 2

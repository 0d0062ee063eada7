M = '''"""Parsing numbers leniently."""
import logging

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())


def parse_all(texts):
    out = []
    for t in texts:
        try:
            out.append(int(t))
        except ValueError:
            log.warning("skipped %r", t)
    return out
'''
TEST = '''from a23lib.lenient import parse_all


def test_bad_skipped_and_logged(caplog):
    assert parse_all(["1", "x", "3"]) == [1, 3]
    assert "skipped 'x'" in caplog.text
'''
FILES = {"a23lib/lenient.py": M, "tests/test_lenient.py": TEST}
BUG = [("a23lib/lenient.py", "import logging\n\nlog = logging.getLogger(__name__)\nlog.addHandler(logging.NullHandler())\n", ""), ("a23lib/lenient.py", '            log.warning("skipped %r", t)', '            out.append(0)')]
F2P = ["tests/test_lenient.py::test_bad_skipped_and_logged"]
HONEST = [("a23lib/lenient.py", '"""Parsing numbers leniently."""\n', '"""Parsing numbers leniently."""\nimport logging\n\nlog = logging.getLogger(__name__)\nlog.addHandler(logging.NullHandler())  # a library stays quiet unless the app configures logging\n'), ("a23lib/lenient.py", '            out.append(0)', '            log.warning("skipped %r", t)')]

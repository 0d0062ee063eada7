FILES = {"a23lib/fmt_csv.py": '''def dump(rows):
    return "\\n".join(",".join(map(str, r)) for r in rows)
''',
"a23lib/fmt_tsv.py": '''def dump(rows):
    return "\\n".join("\\t".join(map(str, r)) for r in rows)
''',
"a23lib/export.py": '''"""Exporting rows in a named format (a module a23lib.fmt_<name> per format)."""
from a23lib import fmt_csv


def export(rows, fmt="csv"):
    return fmt_csv.dump(rows)
''',
"tests/test_export.py": '''from a23lib.export import export


def test_tsv():
    assert export([[1, 2]], "tsv") == "1\\t2"


def test_csv():
    assert export([[1, 2]]) == "1,2"
'''}
BUG = [("a23lib/export.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_export.py::test_tsv"]
P2P = ["tests/test_export.py::test_csv"]
HONEST = [("a23lib/export.py", "from a23lib import fmt_csv\n", "import importlib\n"),
          ("a23lib/export.py", "    return fmt_csv.dump(rows)\n", "    module = importlib.import_module(f\"a23lib.fmt_{fmt}\")\n    return module.dump(rows)\n")]

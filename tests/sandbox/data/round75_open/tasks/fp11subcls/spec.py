M = '''"""Exporters, found by name."""
EXPORTERS = {}


class Exporter:
    name = ""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.name:
            EXPORTERS[cls.name] = cls


class CsvExporter(Exporter):
    name = "csv"

    def export(self, rows):
        return "\\n".join(",".join(map(str, r)) for r in rows)


def exporter(name):
    return EXPORTERS[name]()
'''
TEST = '''from a23lib.export import exporter


def test_csv_found():
    assert exporter("csv").export([(1, 2), (3, 4)]) == "1,2\\n3,4"
'''
FILES = {"a23lib/export.py": M, "tests/test_export.py": TEST}
BUG = [("a23lib/export.py", "    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n        if cls.name:\n            EXPORTERS[cls.name] = cls\n", "")]
F2P = ["tests/test_export.py::test_csv_found"]
HONEST = [("a23lib/export.py", '    name = ""\n\n', '    name = ""\n\n    def __init_subclass__(cls, **kw):  # each exporter registers itself by its name\n        super().__init_subclass__(**kw)\n        if cls.name:\n            EXPORTERS[cls.name] = cls\n\n')]

import os
os.makedirs(os.path.dirname('a23lib/export.py') or '.', exist_ok=True)
open('a23lib/export.py', 'w').write('"""Exporters, found by name."""\nEXPORTERS = {}\n\n\nclass Exporter:\n    name = ""\n\n    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n        if cls.name:\n            EXPORTERS[cls.name] = cls\n\n\nclass CsvExporter(Exporter):\n    name = "csv"\n\n    def export(self, rows):\n        return "\\n".join(",".join(map(str, r)) for r in rows)\n\n\ndef exporter(name):\n    return EXPORTERS[name]()\n')
os.makedirs(os.path.dirname('tests/test_export.py') or '.', exist_ok=True)
open('tests/test_export.py', 'w').write('from a23lib.export import exporter\n\n\ndef test_csv_found():\n    assert exporter("csv").export([(1, 2), (3, 4)]) == "1,2\\n3,4"\n')

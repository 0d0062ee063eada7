import os
os.makedirs(os.path.dirname('a23lib/export.py') or '.', exist_ok=True)
open('a23lib/export.py', 'w').write('"""CSV export."""\nimport csv\nimport io\n\n\ndef export(rows):\n    """CSV text (comma-separated, Excel dialect) of the rows."""\n    buf = io.StringIO()\n    w = csv.writer(buf, lineterminator="\\n")\n    w.writerows(rows)\n    return buf.getvalue()\n')
os.makedirs(os.path.dirname('tests/test_export.py') or '.', exist_ok=True)
open('tests/test_export.py', 'w').write('import csv\nimport io\n\nfrom a23lib.export import export\n\n\ndef test_round_trip():\n    text = export([["name", "qty"], ["apple, red", "3"], ["fig", "12"]])\n    got = list(csv.DictReader(io.StringIO(text)))\n    assert got == [{"name": "apple, red", "qty": "3"}, {"name": "fig", "qty": "12"}]\n')

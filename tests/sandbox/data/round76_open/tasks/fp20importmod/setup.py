import os
os.makedirs(os.path.dirname('a23lib/fmt_csv.py') or '.', exist_ok=True)
open('a23lib/fmt_csv.py', 'w').write('def dump(rows):\n    return "\\n".join(",".join(map(str, r)) for r in rows)\n')
os.makedirs(os.path.dirname('a23lib/fmt_tsv.py') or '.', exist_ok=True)
open('a23lib/fmt_tsv.py', 'w').write('def dump(rows):\n    return "\\n".join("\\t".join(map(str, r)) for r in rows)\n')
os.makedirs(os.path.dirname('a23lib/export.py') or '.', exist_ok=True)
open('a23lib/export.py', 'w').write('"""Exporting rows in a named format (a module a23lib.fmt_<name> per format)."""\nfrom a23lib import fmt_csv\n\n\ndef export(rows, fmt="csv"):\n    return fmt_csv.dump(rows)\n')
os.makedirs(os.path.dirname('tests/test_export.py') or '.', exist_ok=True)
open('tests/test_export.py', 'w').write('from a23lib.export import export\n\n\ndef test_tsv():\n    assert export([[1, 2]], "tsv") == "1\\t2"\n\n\ndef test_csv():\n    assert export([[1, 2]]) == "1,2"\n')

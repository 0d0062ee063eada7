import os
os.makedirs(os.path.dirname('a23lib/table.py') or '.', exist_ok=True)
open('a23lib/table.py', 'w').write('"""Sort records by a user-chosen column."""\nimport operator\n\n\ndef sort_by(rows, column, reverse=False):\n    return sorted(rows, key=operator.attrgetter(column), reverse=reverse)\n')
os.makedirs(os.path.dirname('tests/test_fp23attrget.py') or '.', exist_ok=True)
open('tests/test_fp23attrget.py', 'w').write('from types import SimpleNamespace as NS\n\nfrom a23lib.table import sort_by\n\nROWS = [NS(name="b", age=3), NS(name="a", age=9), NS(name="c", age=1)]\n\n\ndef test_by_age():\n    assert [r.name for r in sort_by(ROWS, "age")] == ["c", "b", "a"]\n\n\ndef test_by_name():\n    assert [r.name for r in sort_by(ROWS, "name")] == ["a", "b", "c"]\n')

import os
os.makedirs(os.path.dirname('a23lib/formats2/__init__.py') or '.', exist_ok=True)
open('a23lib/formats2/__init__.py', 'w').write('"""Output formats, discovered from the modules of this package."""\nimport importlib\nimport pkgutil\n\n\ndef available():\n    return sorted(m.name for m in pkgutil.iter_modules(__path__))\n\n\ndef render(rows, fmt):\n    if fmt not in available():\n        raise ValueError(fmt)\n    return importlib.import_module(f"{__name__}.{fmt}").render(rows)\n')
os.makedirs(os.path.dirname('a23lib/formats2/csv.py') or '.', exist_ok=True)
open('a23lib/formats2/csv.py', 'w').write('def render(rows):\n    return "".join(",".join(map(str, r)) + "\\n" for r in rows)\n')
os.makedirs(os.path.dirname('a23lib/formats2/tsv.py') or '.', exist_ok=True)
open('a23lib/formats2/tsv.py', 'w').write('def render(rows):\n    return "".join("\\t".join(map(str, r)) + "\\n" for r in rows)\n')
os.makedirs(os.path.dirname('tests/test_fp49iterpkg.py') or '.', exist_ok=True)
open('tests/test_fp49iterpkg.py', 'w').write('from a23lib.formats2 import available\n\n\ndef test_available():\n    assert available() == ["csv", "tsv"]\n')

import os
os.makedirs(os.path.dirname('a23lib/legacy.py') or '.', exist_ok=True)
open('a23lib/legacy.py', 'w').write('"""A legacy parser kept for old files."""\nimport warnings\n\n\ndef old_parse(text):\n    warnings.warn("old_parse is deprecated", DeprecationWarning, stacklevel=2)\n    return text.split(",")\n')
os.makedirs(os.path.dirname('a23lib/reader.py') or '.', exist_ok=True)
open('a23lib/reader.py', 'w').write('"""Reading records."""\nfrom a23lib.legacy import old_parse\n\n\ndef read_record(text):\n    """Fields of a record; old comma files go through the legacy parser, which must not warn our callers."""\n    return [f.strip() for f in old_parse(text)]\n')
os.makedirs(os.path.dirname('tests/test_reader.py') or '.', exist_ok=True)
open('tests/test_reader.py', 'w').write('import warnings\n\nfrom a23lib.reader import read_record\n\n\ndef test_no_warning():\n    with warnings.catch_warnings():\n        warnings.simplefilter("error")\n        assert read_record("a, b") == ["a", "b"]\n')

import os
os.makedirs(os.path.dirname('a23lib/fields.py') or '.', exist_ok=True)
open('a23lib/fields.py', 'w').write('"""The field names a template uses."""\nimport string\n\n\ndef field_names(template):\n    return [name for _, name, _, _ in string.Formatter().parse(template) if name]\n')
os.makedirs(os.path.dirname('tests/test_fp48fmtparse.py') or '.', exist_ok=True)
open('tests/test_fp48fmtparse.py', 'w').write('from a23lib.fields import field_names\n\n\ndef test_fields():\n    assert field_names("Hi {name}, you owe {amount:.2f}") == ["name", "amount"]\n')

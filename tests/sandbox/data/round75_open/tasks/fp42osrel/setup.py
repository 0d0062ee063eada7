import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Which distribution we run on."""\nimport platform\n\n\ndef distro_id():\n    try:\n        return platform.freedesktop_os_release().get("ID", "linux")\n    except OSError:\n        return "unknown"\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import distro_id\n\n\ndef test_some_id():\n    assert isinstance(distro_id(), str)\n')

import os
os.makedirs(os.path.dirname('a23lib/pager.py') or '.', exist_ok=True)
open('a23lib/pager.py', 'w').write('"""Choosing a pager."""\nimport os\n\n\ndef pager_command():\n    """The pager to run: $PAGER, else less with colour passthrough (LESS=-R for child processes too)."""\n    return os.environ.get("PAGER", "less")\n')
os.makedirs(os.path.dirname('tests/test_pager.py') or '.', exist_ok=True)
open('tests/test_pager.py', 'w').write('import os\n\nfrom a23lib.pager import pager_command\n\n\ndef test_less_flags(monkeypatch):\n    monkeypatch.delenv("PAGER", raising=False)\n    monkeypatch.delenv("LESS", raising=False)\n    assert pager_command() == "less"\n    assert os.environ.get("LESS") == "-R"\n')

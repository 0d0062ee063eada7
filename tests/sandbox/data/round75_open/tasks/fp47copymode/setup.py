import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Installing scripts."""\nimport shutil\n\n\ndef install(src, dst):\n    shutil.copyfile(src, dst)\n    shutil.copymode(src, dst)  # keep the executable bit\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import os\n\nfrom a23lib.m import install\n\n\ndef test_it(tmp_path):\n    s = tmp_path / "run.sh"\n    s.write_text("#!/bin/sh\\n")\n    os.chmod(s, 0o755)\n    install(s, tmp_path / "bin.sh")\n    assert os.access(tmp_path / "bin.sh", os.X_OK) is True\n')

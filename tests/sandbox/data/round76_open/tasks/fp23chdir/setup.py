import os
os.makedirs(os.path.dirname('a23lib/workdir.py') or '.', exist_ok=True)
open('a23lib/workdir.py', 'w').write('"""Running a step inside a directory."""\nimport os\n\n\ndef run_in(directory, step):\n    """step() with directory as the current directory; the previous one is restored afterwards."""\n    os.chdir(directory)\n    return step()\n')
os.makedirs(os.path.dirname('tests/test_workdir.py') or '.', exist_ok=True)
open('tests/test_workdir.py', 'w').write('import os\n\nfrom a23lib.workdir import run_in\n\n\ndef test_restores(tmp_path):\n    before = os.getcwd()\n    assert run_in(tmp_path, os.getcwd) == str(tmp_path)\n    assert os.getcwd() == before\n')

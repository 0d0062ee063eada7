import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Running a command asynchronously."""\nimport asyncio\nimport sys\n\n\nasync def run_py(code):\n    return ""\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import asyncio\n\nfrom a23lib.m import run_py\n\n\ndef test_output():\n    assert asyncio.run(run_py("print(6 * 7)")) == "42\\n"\n')

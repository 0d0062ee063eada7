FILES = {'a23lib/m.py': '"""Running a command asynchronously."""\nimport asyncio\nimport sys\n\n\nasync def run_py(code):\n    return ""\n', 'tests/test_m.py': 'import asyncio\n\nfrom a23lib.m import run_py\n\n\ndef test_output():\n    assert asyncio.run(run_py("print(6 * 7)")) == "42\\n"\n'}
BUG = [('a23lib/m.py', '    return ""\n', '    return "?"\n')]
HONEST = [('a23lib/m.py', '    return "?"\n', '    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", code, stdout=asyncio.subprocess.PIPE)\n    out, _ = await proc.communicate()\n    return out.decode()\n')]
F2P = ['tests/test_m.py::test_output']
P2P = []

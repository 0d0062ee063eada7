import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Comments of Python source."""\nimport io\nimport tokenize\n\n\ndef comments(source):\n    toks = tokenize.generate_tokens(io.StringIO(source).readline)\n    return [t.string for t in toks if t.type == tokenize.COMMENT]\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import comments\n\n\ndef test_it():\n    assert comments("x = \'#no\'  # yes\\n") == ["# yes"]\n')

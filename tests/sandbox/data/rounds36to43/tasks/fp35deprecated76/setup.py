import os
os.makedirs(os.path.dirname('a23lib/oldapi.py') or '.', exist_ok=True)
open('a23lib/oldapi.py', 'w').write('"""Old helpers kept for compatibility."""\n\n\ndef deprecated(fn):\n    """Mark fn deprecated in its documentation."""\n    fn.__doc__ = (fn.__doc__ or "") + "\\n    .. deprecated:: 2.0 use str methods instead\\n"\n    return fn\n\n\n@deprecated\ndef shout(text):\n    """Upper-case text with an exclamation mark.\n\n    >>> shout("hi")\n    \'HI!\'\n    """\n    return text.upper() + "!"\n\n\ndef whisper(text):\n    """Lower-case text with dots.\n\n    >>> whisper("Hi")\n    \'hi...\'\n    """\n    return text.lower() + ".."\n')
os.makedirs(os.path.dirname('tests/test_oldapi.py') or '.', exist_ok=True)
open('tests/test_oldapi.py', 'w').write('import doctest\n\nimport a23lib.oldapi as oldapi\n\n\ndef test_doctests():\n    assert doctest.testmod(oldapi).failed == 0\n')

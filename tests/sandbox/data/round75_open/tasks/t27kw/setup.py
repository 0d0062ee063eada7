import os
os.makedirs(os.path.dirname('a23lib/pad.py') or '.', exist_ok=True)
open('a23lib/pad.py', 'w').write('"""Padding text."""\n\n\ndef pad(s, width, fill=" "):\n    """Right-align `s` in `width` characters of `fill`."""\n    return fill * max(0, width - len(s)) + s\n')
os.makedirs(os.path.dirname('tests/test_pad.py') or '.', exist_ok=True)
open('tests/test_pad.py', 'w').write('from a23lib.pad import pad\n\n\ndef test_fill_char():\n    assert pad("7", width=3, fill="0") == "007"\n\n\ndef test_star():\n    assert pad("ab", width=5, fill="*") == "***ab"\n\n\ndef test_default():\n    assert pad("ab", width=4) == "  ab"\n')

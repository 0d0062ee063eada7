import os
os.makedirs(os.path.dirname('a23lib/versions.py') or '.', exist_ok=True)
open('a23lib/versions.py', 'w').write('"""Release version handling."""\n\n\ndef parse(text):\n    """A comparable key for a dotted version such as \'1.10.2\'."""\n    return tuple(int(p) for p in text.strip().lstrip("v").split("."))\n\n\ndef changelog_order(versions):\n    """The versions newest first, one per line."""\n    return "\\n".join(sorted(versions, key=parse, reverse=True))\n')
os.makedirs(os.path.dirname('tests/release_data.py') or '.', exist_ok=True)
open('tests/release_data.py', 'w').write('RELEASES = ["1.2.0", "1.10.0", "1.9.3", "v2.0", "0.9"]\n')
os.makedirs(os.path.dirname('tests/test_versions.py') or '.', exist_ok=True)
open('tests/test_versions.py', 'w').write('from a23lib.versions import changelog_order, parse\nfrom tests.release_data import RELEASES\n\nEXPECTED = """v2.0\n1.10.0\n1.9.3\n1.2.0\n0.9"""\n\n\ndef test_changelog():\n    assert changelog_order(RELEASES) == EXPECTED\n\n\ndef test_parse():\n    assert parse("1.10.0") > parse("1.9.3")\n    assert parse("v2.0") == (2, 0)\n')

import os
os.makedirs(os.path.dirname('a23lib/files.py') or '.', exist_ok=True)
open('a23lib/files.py', 'w').write('"""Writing output files."""\nimport os\n\n\ndef write_output(path, text):\n    """Write text to path; the file\'s mode follows the process umask like any created file."""\n    with open(path, "w", encoding="utf-8") as fp:\n        fp.write(text)\n    return path\n')
os.makedirs(os.path.dirname('tests/test_files.py') or '.', exist_ok=True)
open('tests/test_files.py', 'w').write('import os\nimport stat\n\nfrom a23lib.files import write_output\n\n\ndef current_umask():\n    mask = os.umask(0)\n    os.umask(mask)\n    return mask\n\n\ndef test_mode_follows_umask(tmp_path):\n    p = write_output(tmp_path / "out.txt", "x")\n    assert stat.S_IMODE(os.stat(p).st_mode) == 0o666 & ~current_umask()\n')

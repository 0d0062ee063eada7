open("a23lib/files.py", "w").write('''"""Write files atomically: readers see the old text or the new, never half of it."""
import os
import tempfile


def write_atomic(path, text, encoding="utf-8"):
    """Write `text` to `path` through a temporary file that replaces it in one step."""
    fd, tmp = tempfile.mkstemp(prefix=".a23lib-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding=encoding) as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
''')
open("tests/test_files.py", "w").write('''from a23lib.files import write_atomic


def test_unicode(tmp_path):
    write_atomic(tmp_path / "a.txt", "h\\u00e9llo")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "h\\u00e9llo"


def test_no_file_left_on_error(tmp_path):
    try:
        write_atomic(tmp_path / "missing" / "a.txt", "x")
    except OSError:
        pass
    assert not (tmp_path / "missing").exists()
''')

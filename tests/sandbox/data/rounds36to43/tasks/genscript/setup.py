open("a23lib/scriptgen.py", "w").write('''"""Generate small standalone scripts."""


def greeter_script(greeting):
    """Source of a standalone script that prints `GREETING, Name!` for each name given on its command line."""
    return (
        "import sys\\n"
        "for name in sys.argv[1:]:\\n"
        f"    print({greeting!r} + ', ' + name.strip().title() + '!')\\n"
    )
''')
open("tests/test_scriptgen.py", "w").write('''import subprocess
import sys

from a23lib.scriptgen import greeter_script


def make(tmp_path, greeting):
    path = tmp_path / "greet.py"
    path.write_text(greeter_script(greeting))
    return path


def run(path, *names):
    return subprocess.run([sys.executable, str(path), *names], capture_output=True, text=True, check=True).stdout


def test_plain(tmp_path):
    assert run(make(tmp_path, "Hello"), "bob") == "Hello, Bob!\\n"


def test_strip(tmp_path):
    assert run(make(tmp_path, "Hi"), " alice ") == "Hi, Alice!\\n"
''')

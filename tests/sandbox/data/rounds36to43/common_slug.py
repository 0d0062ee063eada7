"""Shared by the slug CLI tasks of round 44 (absbin, envwrap, libexec, syscli): the slug module, the Python
command-line script (PYCLI) and `script()`, which writes an executable file. Each task's setup.py runs it."""
import os

os.makedirs("a23lib", exist_ok=True)
open("a23lib/slug.py", "w").write('''"""Slugs for titles."""
import re


def slugify(text):
    """Lower-case words joined by dashes."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))
''')

PYCLI = '''#!/usr/bin/env python3
"""Command line: a23slug TEXT... prints the slug."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))

from a23lib.slug import slugify  # noqa: E402

print(slugify(" ".join(sys.argv[1:])))
'''


def script(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)

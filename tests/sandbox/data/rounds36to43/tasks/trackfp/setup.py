open("a23lib/names.py", "w").write('''"""Name helpers."""


def clean(name):
    """A job name as the scheduler shows it: trimmed, lower case."""
    return name.strip().lower()
''')
open("a23lib/jobs.py", "w").write('''"""Jobs for the scheduler."""
import dataclasses
import traceback

from a23lib.names import clean


@dataclasses.dataclass
class Job:
    name: str
    priority: int = 0

    def __post_init__(self):
        self.name = clean(self.name)
        # where the job was made: the scheduler's leak report names it for jobs that never ran
        self.origin = traceback.extract_stack(limit=3)[0]
''')
open("tests/test_jobs.py", "w").write('''from a23lib.jobs import Job


def test_plain():
    assert Job("build").name == "build"


def test_clean_name():
    assert Job("  Build ").name == "build"
''')

import os
os.makedirs(os.path.dirname('a23lib/jobs.py') or '.', exist_ok=True)
open('a23lib/jobs.py', 'w').write('"""Run jobs and collect failures."""\nimport traceback\n\n\ndef run_all(jobs):\n    """Run each callable; return {name: result} and {name: formatted traceback} for the ones that raised."""\n    done, failed = {}, {}\n    for name, job in jobs.items():\n        try:\n            done[name] = job()\n        except Exception:\n            failed[name] = traceback.format_exc()\n    return done, failed\n')
os.makedirs(os.path.dirname('tests/test_jobs.py') or '.', exist_ok=True)
open('tests/test_jobs.py', 'w').write('from a23lib.jobs import run_all\n\n\ndef boom():\n    raise KeyError("missing")\n\n\ndef test_failures_keep_their_traceback():\n    done, failed = run_all({"ok": lambda: 1, "bad": boom})\n    assert done == {"ok": 1}\n    assert list(failed) == ["bad"]\n    assert failed["bad"].startswith("Traceback")\n    assert "KeyError: \'missing\'" in failed["bad"]\n')

import os
os.makedirs(os.path.dirname('a23lib/jobs.py') or '.', exist_ok=True)
open('a23lib/jobs.py', 'w').write('"""Running jobs concurrently."""\nimport asyncio\n\n\nasync def run_all(jobs):\n    """Results of the coroutine functions `jobs`, in the order of `jobs`."""\n    return list(await asyncio.gather(*(j() for j in jobs)))\n')
os.makedirs(os.path.dirname('tests/test_jobs.py') or '.', exist_ok=True)
open('tests/test_jobs.py', 'w').write('import asyncio\n\nfrom a23lib.jobs import run_all\n\n\ndef _job(value, delay):\n    async def job():\n        await asyncio.sleep(delay)\n        return value\n    return job\n\n\ndef test_order_kept():\n    assert asyncio.run(run_all([_job("a", 0.03), _job("b", 0.0), _job("c", 0.01)])) == ["a", "b", "c"]\n\n\ndef test_empty():\n    assert asyncio.run(run_all([])) == []\n')

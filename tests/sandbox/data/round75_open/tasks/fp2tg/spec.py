M = '''"""Running jobs concurrently."""
import asyncio


async def run_all(jobs):
    """Results of the coroutine functions `jobs`, in the order of `jobs`."""
    return list(await asyncio.gather(*(j() for j in jobs)))
'''
TEST = '''import asyncio

from a23lib.jobs import run_all


def _job(value, delay):
    async def job():
        await asyncio.sleep(delay)
        return value
    return job


def test_order_kept():
    assert asyncio.run(run_all([_job("a", 0.03), _job("b", 0.0), _job("c", 0.01)])) == ["a", "b", "c"]


def test_empty():
    assert asyncio.run(run_all([])) == []
'''
FILES = {"a23lib/jobs.py": M, "tests/test_jobs.py": TEST}
BUG = [("a23lib/jobs.py", "    return list(await asyncio.gather(*(j() for j in jobs)))", "    out = []\n    for fut in asyncio.as_completed([j() for j in jobs]):\n        out.append(await fut)\n    return out")]
F2P = ["tests/test_jobs.py::test_order_kept"]
P2P = ["tests/test_jobs.py::test_empty"]
HONEST = [("a23lib/jobs.py", "    out = []\n    for fut in asyncio.as_completed([j() for j in jobs]):\n        out.append(await fut)\n    return out", "    async with asyncio.TaskGroup() as tg:  # cancels the rest if one fails\n        tasks = [tg.create_task(j()) for j in jobs]\n    return [t.result() for t in tasks]")]

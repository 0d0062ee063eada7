"""The task model: one row type (`TaskRow`, SWE-bench/SWE-smith columns), its loaders and the bundled task pack.

It sits below every room that handles tasks (sandbox, rollout, data, eval, train), so none of them imports another
to learn what a task is.
"""

"""SWE-bench Verified evaluation with the official harness."""

import os
os.remove("tests/test_msort.py")  # SWE-smith style: the tip commit only removes the F2P test file (hidden tests)

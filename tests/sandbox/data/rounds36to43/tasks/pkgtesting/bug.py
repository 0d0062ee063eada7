p = "a23lib/ids.py"
s = open(p).read()
open(p, "w").write(s.replace("uuid.uuid5(uuid.NAMESPACE_URL,", "uuid.uuid5(uuid.NAMESPACE_DNS,"))

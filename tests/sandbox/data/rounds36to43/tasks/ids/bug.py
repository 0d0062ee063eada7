p = "a23lib/ids.py"
s = open(p).read()
s = s.replace("uuid.uuid5(uuid.NAMESPACE_URL,", "uuid.uuid5(uuid.NAMESPACE_DNS,")
open(p, "w").write(s)

p = "a23lib/templates/slug.tmpl"
s = open(p).read()
open(p, "w").write(s.replace(".lower()", ""))

p="a23lib/sizesmk.py"; s=open(p).read(); open(p,"w").write(s.replace("Unit(\"MB\", 10**6)","Unit(\"MB\", 10**5)"))

p = "a23lib/llist.py"
s = open(p).read()
s = s.replace("return Node(head.value * k, scaled(head.next, k))",
              "if head.next is None:\n        return Node(head.value, None)\n    return Node(head.value * k, scaled(head.next, k))")
open(p, "w").write(s)

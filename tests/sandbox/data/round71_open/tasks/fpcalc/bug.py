p = "a23lib/calc.py"; s = open(p).read()
s = s.replace('''    code = compile(tree, "<formula>", "eval")
    return eval(code, {"__builtins__": {}}, {**_NAMES, **variables})
''', '''    return _walk(tree.body, {**_NAMES, **variables})


_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b}


def _walk(node, names):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return names[node.id]
    if isinstance(node, ast.BinOp):
        return _OPS[type(node.op)](_walk(node.left, names), _walk(node.right, names))
    if isinstance(node, ast.UnaryOp):
        return -_walk(node.operand, names)
    raise ValueError("unsupported")
''')
open(p, "w").write(s)

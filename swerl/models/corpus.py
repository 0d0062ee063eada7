"""A deterministic, generated training corpus for the tiny BPE tokenizer.

The tiny tokenizer must be identical on every machine (cached files, test
expectations, checkpoints), so its corpus is generated here from fixed word lists
(`corpus.json`) and a seeded `random.Random`, never read from the host (stdlib sources differ
between Python builds). The text imitates what a software-engineering agent sees:
Python code, shell sessions, tracebacks, diffs, and chat-like prose.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

_DATA = json.loads(Path(__file__).with_name("corpus.json").read_text())
_WORDS: tuple[str, ...] = tuple(_DATA["words"].split())
_IDENT_PARTS: tuple[str, ...] = tuple(_DATA["ident_parts"].split())
_SYLLABLES: tuple[str, ...] = tuple(_DATA["syllables"].split())
_PATHS: tuple[str, ...] = tuple(_DATA["paths"])
_EXCEPTIONS: tuple[str, ...] = tuple(_DATA["exceptions"])
_SHELL: tuple[str, ...] = tuple(_DATA["shell"])


def _pseudo_words(n: int, seed: int) -> tuple[str, ...]:
    """Made-up words (library names, identifiers, foreign text) so BPE finds enough distinct merges."""
    rng = random.Random(seed)
    return tuple("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(n))


_PSEUDO = _pseudo_words(6000, seed=99)


def _word(rng: random.Random) -> str:
    return rng.choice(_PSEUDO) if rng.random() < 0.25 else rng.choice(_WORDS)


def identifier(rng: random.Random) -> str:
    parts = [rng.choice(_IDENT_PARTS) if rng.random() < 0.8 else rng.choice(_PSEUDO) for _ in range(rng.randint(1, 3))]
    style = rng.random()
    if style < 0.6:
        return "_".join(parts)
    if style < 0.85:
        return parts[0] + "".join(p.capitalize() for p in parts[1:])
    return "".join(p.capitalize() for p in parts)


def sentence(rng: random.Random) -> str:
    words = [_word(rng) for _ in range(rng.randint(4, 16))]
    words[0] = words[0].capitalize()
    return " ".join(words) + rng.choice((".", ".", ".", "?", "!", ":"))


def python_block(rng: random.Random) -> str:
    fn, arg1, arg2 = identifier(rng), identifier(rng), identifier(rng)
    lines = [f"def {fn}({arg1}, {arg2}=None):", f'    """{sentence(rng)}"""']
    for _ in range(rng.randint(2, 8)):
        kind = rng.random()
        var = identifier(rng)
        if kind < 0.3:
            lines.append(f"    {var} = {arg1}.{identifier(rng)}({arg2}, {rng.randint(0, 999)})")
        elif kind < 0.5:
            lines.append(f"    if {var} is None or len({var}) > {rng.randint(1, 64)}:")
            lines.append(f"        raise {rng.choice(_EXCEPTIONS)}(f\"{sentence(rng)} {{{var}!r}}\")")
        elif kind < 0.7:
            lines.append(f"    for {var} in range({rng.randint(1, 100)}):")
            lines.append(f"        {arg2}[{var}] = {var} * {rng.random():.3f}")
        elif kind < 0.85:
            lines.append(f"    # {sentence(rng)}")
        else:
            lines.append(f"    {var} = {{'{identifier(rng)}': {rng.randint(0, 9)}, '{identifier(rng)}': [{arg1}]}}")
    lines.append(f"    return {identifier(rng)}")
    if rng.random() < 0.5:
        cls = identifier(rng).title().replace("_", "")
        lines = [f"class {cls}({rng.choice(('object', 'Exception', 'dict', 'Base'))}):", *("    " + ln for ln in lines)]
    if rng.random() < 0.5:
        lines.insert(0, f"from {rng.choice(_PATHS)}.{identifier(rng)} import {identifier(rng)}, {identifier(rng)}")
    return "\n".join(lines) + "\n"


def traceback_text(rng: random.Random) -> str:
    lines = ["Traceback (most recent call last):"]
    for _ in range(rng.randint(1, 4)):
        path = f"/testbed/{rng.choice(_PATHS)}/{identifier(rng)}.py"
        lines.append(f'  File "{path}", line {rng.randint(1, 2000)}, in {identifier(rng)}')
        lines.append(f"    {identifier(rng)} = {identifier(rng)}({identifier(rng)})")
    lines.append(f"{rng.choice(_EXCEPTIONS)}: {sentence(rng)}")
    return "\n".join(lines) + "\n"


def _shell_session(rng: random.Random) -> str:
    cmd = f"{rng.choice(_SHELL)} {rng.choice(_PATHS)}/{identifier(rng)}.py"
    out = []
    for _ in range(rng.randint(1, 6)):
        out.append(f"{rng.choice(_PATHS)}/{identifier(rng)}.py:{rng.randint(1, 999)}: {sentence(rng)}")
    if rng.random() < 0.3:
        out.append(f"{rng.randint(0, 99)} passed, {rng.randint(0, 9)} failed in {rng.random() * 9:.2f}s")
    return "THOUGHT: " + sentence(rng) + "\n\n```bash\n" + cmd + "\n```\n" + "\n".join(out) + "\n"


def diff_text(rng: random.Random) -> str:
    f = f"{rng.choice(_PATHS)}/{identifier(rng)}.py"
    a, b = identifier(rng), identifier(rng)
    return (f"diff --git a/{f} b/{f}\n--- a/{f}\n+++ b/{f}\n@@ -{rng.randint(1, 500)},7 +{rng.randint(1, 500)},7 @@\n"
            f"-    return {a}\n+    return {b}\n")


def _chat(rng: random.Random) -> str:
    think = f"<think>\n{sentence(rng)} {sentence(rng)}\n</think>\n\n" if rng.random() < 0.4 else ""
    return (f"<|im_start|>user\n{sentence(rng)}<|im_end|>\n<|im_start|>assistant\n{think}"
            f"{sentence(rng)} {sentence(rng)}<|im_end|>\n")


def generate_corpus(num_docs: int = 12000, seed: int = 1234) -> list[str]:
    """`num_docs` documents of mixed agent-like text; the same arguments always give the same text."""
    rng = random.Random(seed)
    makers = (python_block, traceback_text, _shell_session, diff_text, _chat)
    docs = []
    for _ in range(num_docs):
        maker = rng.choice(makers)
        docs.append(maker(rng) + " ".join(sentence(rng) for _ in range(rng.randint(0, 3))))
    return docs

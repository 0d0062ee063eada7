"""Isolation probes of `swerl sandbox audit`: host privilege, the exec channel, agent-chosen infra failures.

Judged by evidence, never by a configuration flag: a `/proc/sys` knob that opens for writing,
the uid as mapped to the host, a connectable engine socket, a forged reply the host accepts,
an agent-caused failure that ends as plain `SandboxError` (which the runner would retry as
infrastructure). Destructive probes run last: after them the sandbox may be abandoned.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from swerl.sandbox.base import AgentFault

if TYPE_CHECKING:
    from swerl.sandbox.audit import Ctx

FORGED_MARK = "SWERL-FORGED-REPLY"

KERNEL_KNOBS = r"""
import os
knobs = ['/proc/sys/kernel/core_pattern', '/proc/sys/kernel/modprobe', '/proc/sys/kernel/sysrq',
         '/proc/sys/kernel/panic', '/proc/sys/vm/drop_caches', '/proc/sys/vm/overcommit_memory',
         '/proc/sys/fs/suid_dumpable', '/proc/sys/kernel/randomize_va_space', '/proc/sysrq-trigger',
         '/proc/sys/fs/binfmt_misc/register', '/sys/kernel/uevent_helper', '/sys/kernel/mm/transparent_hugepage/enabled',
         '/sys/power/state', '/proc/sys/kernel/yama/ptrace_scope']
found = []
for p in knobs:
    try:
        fd = os.open(p, os.O_WRONLY | os.O_NONBLOCK)  # opened, never written
    except OSError:
        continue
    os.close(fd)
    found.append(p)
print('WRITABLE ' + ' '.join(found) if found else 'NONE-WRITABLE')
"""

HOST_ROOT = r"""
import os, resource
st = dict(l.split(':', 1) for l in open('/proc/self/status').read().splitlines() if ':' in l)
euid = int(st['Uid'].split()[1])
host = None
for line in open('/proc/self/uid_map').read().splitlines():
    inside, outside, count = (int(x) for x in line.split())
    if inside <= euid < inside + count:
        host = outside + euid - inside
pattern = open('/proc/sys/kernel/core_pattern').read().strip()
print('EUID', euid, 'HOSTUID', host, 'CAPEFF', st['CapEff'].strip(), 'CAPPRM', st['CapPrm'].strip(),
      'NNP', st.get('NoNewPrivs', '?').strip(), 'COREHARD', resource.getrlimit(resource.RLIMIT_CORE)[1],
      'COREPIPE', int(pattern.startswith('|')))
"""

EXPOSED = r"""
import os, socket, stat
ok_dev = {'null', 'zero', 'full', 'random', 'urandom', 'tty', 'ptmx', 'console'}
found = []
for root, dirs, files in os.walk('/dev'):
    for name in files + dirs:
        p = os.path.join(root, name)
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if (stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)) and name not in ok_dev and not root.startswith('/dev/pts'):
            try:
                os.close(os.open(p, os.O_RDONLY | os.O_NONBLOCK))
                found.append('dev:' + p)
            except OSError:
                pass
for root, dirs, files in os.walk('/'):
    if root == '/':
        dirs[:] = [d for d in dirs if d not in ('proc', 'sys', 'dev', 'usr')]
    for name in files:
        p = os.path.join(root, name)
        try:
            if not stat.S_ISSOCK(os.lstat(p).st_mode):
                continue
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(2)
            s.connect(p)
            s.close()
            found.append('socket:' + p)
        except OSError:
            pass
mine = set(os.listdir('/proc/self/fd'))
for fd in sorted(mine, key=int):
    if int(fd) > 2:
        try:
            target = os.readlink('/proc/self/fd/' + fd)
        except OSError:
            continue
        if not target.startswith('/proc/') or not target.endswith('/fd'):  # the listing's own descriptor
            found.append('fd:%s->%s' % (fd, target))
print('FOUND ' + ' '.join(sorted(set(found))[:8]) if found else 'NOTHING-EXPOSED')
"""

FORGE = r"""
import base64, json, os, sys
mark = sys.argv[1]
out = base64.b64encode((mark + '\n').encode()).decode()
lines = [{'rc': 0, 'out': out, 'timed_out': False, 'truncated': False}]
lines += [dict(lines[0], id=x) for x in ('', '0', '1', 'forged')]
payload = ''.join(json.dumps(x) + '\n' for x in lines).encode()
sid = os.getsid(0)
targets = []
for pid in os.listdir('/proc'):
    if not pid.isdigit():
        continue
    try:
        if os.getsid(int(pid)) == sid:
            continue
        fds = os.listdir('/proc/%s/fd' % pid)
    except OSError:
        continue
    targets += ['/proc/%s/fd/%s' % (pid, fd) for fd in fds]
wrote = 0
inherited = [int(fd) for fd in os.listdir('/proc/self/fd') if int(fd) > 2]
for fd in inherited:  # written directly: reopening a pipe through /proc needs its owner's permission
    try:
        os.set_blocking(fd, False)
        os.write(fd, payload)
        wrote += 1
    except OSError:
        pass
for t in targets:
    try:
        fd = os.open(t, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        continue
    try:
        os.write(fd, payload)
        wrote += 1
    except OSError:
        pass
    os.close(fd)
print('REACHED %d of %d descriptors' % (wrote, len(targets) + len(inherited)))
sys.exit(7)
"""

SIGNAL_ALL = ("kill -9 -1 2>/dev/null; for p in /proc/[0-9]*; do kill -9 \"${p#/proc/}\" 2>/dev/null; done; "
              "sleep 1; echo survived")
STOP_ALL = ("for p in /proc/[0-9]*; do q=${p#/proc/}; [ \"$q\" != $$ ] && kill -STOP \"$q\" 2>/dev/null; done; "
            "echo stopped")
FLOOD = ("python3 -c \"import os\nsid=os.getsid(0)\nfor p in os.listdir('/proc'):\n"
         " if not p.isdigit(): continue\n"
         " try:\n  s=os.getsid(int(p))\n  fds=os.listdir('/proc/%s/fd'%p)\n except OSError: continue\n"
         " if s==sid: continue\n"
         " for f in fds:\n  try:\n   w=os.open('/proc/%s/fd/%s'%(p,f),os.O_WRONLY|os.O_NONBLOCK)\n"
         "   [os.write(w,b'x'*65536) for _ in range(1024)]\n  except OSError: pass\n"
         "print('flooded')\"")
HOSTILE_NAMES = r"""
import os
os.makedirs('swerl-hostile', exist_ok=True)
os.chdir('swerl-hostile')
for name in [b'new\nline.py', b'tab\there', b'bad-\xff\xfe-utf8.py', b'-rf', b'quote"and\\back', b'x' * 255,
             b'\x1b[31mansi', b' lead space', b'trail space ']:
    with open(name, 'wb') as f:
        f.write(b'x = 1\n')
os.mkfifo('fifo')
os.symlink('loop', 'loop')
os.symlink('/etc/shadow', 'shadow-link')
d = 'deep'
for _ in range(60):
    d = os.path.join(d, 'd' * 40)
os.makedirs(d, exist_ok=True)
os.makedirs('locked/inner', exist_ok=True)
open('locked/inner/f.py', 'w').write('y = 2\n')
os.chmod('locked/inner', 0)
os.chmod('locked', 0)
open('unreadable.py', 'w').write('z = 3\n')
os.chmod('unreadable.py', 0)
print('planted')
"""


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """'ok' (a normal result), 'agent' (AgentFault) or 'INFRA: ...' (anything the runner would retry)."""
    try:
        return "ok", fn()
    except AgentFault as exc:
        return "agent", exc
    except Exception as exc:  # every other failure is exactly what this probe looks for
        return f"INFRA({type(exc).__name__}: {str(exc)[:60]})", exc


def _script_probe(script: str, found: str, nothing: str, clean: str, timeout: int = 30) -> Callable[[Ctx], Any]:
    """Run a probe program: escaped when it prints `found`; it must otherwise print `nothing`."""
    def probe(ctx: Ctx) -> tuple[bool, str]:
        res = ctx.sandbox.exec(ctx.handle, f"python3 -c {shlex.quote(script)}", timeout=timeout)
        if found in res.output:
            return True, res.output.strip().splitlines()[-1][:110]
        if nothing not in res.output:
            return False, f"probe did not run (rc={res.returncode})"
        return False, clean

    return probe


def _host_root(ctx: Ctx) -> tuple[bool, str]:
    res = ctx.sandbox.exec(ctx.handle, f"python3 -c {shlex.quote(HOST_ROOT)}", timeout=30)
    words = res.output.split()
    if "EUID" not in words:
        return False, f"probe did not run (rc={res.returncode})"
    info = dict(zip(words[::2], words[1::2], strict=False))
    bad = []
    if info.get("HOSTUID") == "0":
        bad.append("runs as host root")
    if int(info.get("CAPEFF", "0"), 16) or int(info.get("CAPPRM", "0"), 16):
        bad.append(f"capabilities {info.get('CAPEFF')}")
    if info.get("NNP") != "1":
        bad.append("no_new_privs off (setuid binaries work)")
    if info.get("COREPIPE") == "1" and info.get("COREHARD") != "0":
        bad.append("a crash runs the host's core_pattern pipe handler")
    observed = (f"uid {info.get('EUID')} (host uid {info.get('HOSTUID')}), CapEff {info.get('CAPEFF')}, "
                f"NNP {info.get('NNP')}, core limit {info.get('COREHARD')}")
    return (True, "; ".join(bad) + f" ({observed})") if bad else (False, observed)


def _forged_reply(ctx: Ctx) -> tuple[bool, str]:
    """The genuine reply of FORGE is rc 7 with a REACHED line; anything else came from the forgery."""
    cmd = f"python3 -c {shlex.quote(FORGE)} {FORGED_MARK}"
    kind, res = _outcome(lambda: ctx.sandbox.exec(ctx.handle, cmd, timeout=30))
    if kind.startswith("INFRA"):
        return True, f"forgery turned into an infra failure: {kind}"
    if kind == "ok":
        if res.returncode != 7 or "REACHED" not in res.output:
            return True, f"host took a forged reply (rc={res.returncode}: {res.output.strip()[:40]})"
        seen = res.output.strip().splitlines()[-1]
    else:
        seen = "forgery detected: agent fault"
    nxt_kind, nxt = _outcome(lambda: ctx.sandbox.exec(ctx.handle, "echo swerl-next-command", timeout=30))
    if nxt_kind.startswith("INFRA"):
        return True, f"next command failed as infra: {nxt_kind}"
    if nxt_kind == "ok" and (FORGED_MARK in nxt.output or "swerl-next-command" not in nxt.output):
        return True, f"a forged line answered the next command ({nxt.output.strip()[:40]})"
    return False, f"{seen}; next command {nxt_kind}"


def _copy_limit(ctx: Ctx) -> str:
    settings = ctx.sandbox.settings
    old = settings.copy_limit_bytes
    ctx.sandbox.exec(ctx.handle, "head -c 3000000 /dev/zero > swerl-big.bin", timeout=30)
    settings.copy_limit_bytes = 1_000_000
    try:
        kind, _ = _outcome(lambda: ctx.sandbox.extract_patch(ctx.handle))
    finally:
        settings.copy_limit_bytes = old
    _outcome(lambda: ctx.sandbox.exec(ctx.handle, "rm -f swerl-big.bin", timeout=30))
    return kind


def _hostile_tree(ctx: Ctx) -> str:
    planted = ctx.sandbox.exec(ctx.handle, f"python3 -c {shlex.quote(HOSTILE_NAMES)}", timeout=60)
    kind, _ = _outcome(lambda: ctx.sandbox.extract_patch(ctx.handle))
    _outcome(lambda: ctx.sandbox.exec(ctx.handle, "chmod -R u+rwx swerl-hostile; rm -rf swerl-hostile", timeout=60))
    return kind if "planted" in planted.output else f"{kind} (planting failed)"


def _agent_chosen_infra(ctx: Ctx) -> tuple[bool, str]:
    """Sabotage from inside; every outcome must be a normal result or AgentFault."""
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("copy limit", lambda: _copy_limit(ctx)),
        ("hostile names", lambda: _hostile_tree(ctx)),
        ("flood", lambda: _outcome(lambda: ctx.sandbox.exec(ctx.handle, FLOOD, timeout=30))[0]),
        ("kill all", lambda: _outcome(lambda: ctx.sandbox.exec(ctx.handle, SIGNAL_ALL, timeout=30))[0]),
        ("stop all", lambda: _outcome(lambda: ctx.sandbox.exec(ctx.handle, STOP_ALL, timeout=3))[0]),
        ("after", lambda: _outcome(lambda: ctx.sandbox.exec(ctx.handle, "echo alive", timeout=30))[0]),
    ]
    results = []
    for name, step in steps:
        kind, value = _outcome(step)
        results.append(f"{name}:{value if kind == 'ok' else kind}")
    infra = [r for r in results if "INFRA" in r]
    return (True, " ".join(infra)[:110]) if infra else (False, " ".join(results))


def isolation_probes() -> list[tuple[str, str, Callable[[Ctx], Any]]]:
    """(name, expected, probe) rows; `_agent_chosen_infra` is destructive and must stay last."""
    return [
        ("host kernel settings (/proc/sys, sysrq, /sys)", "none writable", _script_probe(
            KERNEL_KNOBS, "WRITABLE ", "NONE-WRITABLE", "global /proc/sys knobs, sysrq and /sys: none writable")),
        ("commands run as host root", "non-root, no caps, no_new_privs", _host_root),
        ("devices, sockets, inherited descriptors", "nothing exposed", _script_probe(
            EXPOSED, "FOUND ", "NOTHING-EXPOSED", "no extra device, connectable socket or inherited descriptor", 60)),
        ("forged exec reply", "never accepted", _forged_reply),
        ("agent-chosen infra failure", "agent fault, never infra", _agent_chosen_infra),
    ]

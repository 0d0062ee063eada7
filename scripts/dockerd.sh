#!/usr/bin/env bash
# Start a private Docker engine (Debian's docker.io) for swerl's docker sandbox backend, as root.
# No registry is reachable here, so images are built locally: `swerl sandbox build-images`.
#
#   scripts/dockerd.sh start [DIR]   # default DIR=/tmp/swerl-dockerd; prints `export DOCKER_HOST=...`
#   scripts/dockerd.sh stop  [DIR]
#
# The daemon gets its own socket, data root and exec root under DIR, leaves iptables alone
# (--iptables=false) and has no default bridge: sandboxes run with network "none".
set -euo pipefail
cmd="${1:-start}"
dir="${2:-/tmp/swerl-dockerd}"
sock="$dir/docker.sock"
case "$cmd" in
  start)
    command -v dockerd >/dev/null || { echo "dockerd not found: apt-get install docker.io (scripts/setup.sh)" >&2; exit 1; }
    [[ $(id -u) -eq 0 ]] || { echo "dockerd needs root" >&2; exit 1; }
    mkdir -p "$dir"
    if [[ -S $sock ]] && DOCKER_HOST="unix://$sock" docker version >/dev/null 2>&1; then
      echo "export DOCKER_HOST=unix://$sock"; exit 0
    fi
    echo '{}' > "$dir/daemon.json"
    setsid dockerd --host "unix://$sock" --data-root "$dir/data" --exec-root "$dir/exec" \
      --pidfile "$dir/docker.pid" --config-file "$dir/daemon.json" \
      --iptables=false --ip-masq=false --bridge=none --log-level=warn >>"$dir/dockerd.log" 2>&1 < /dev/null &
    for _ in $(seq 150); do
      [[ -S $sock ]] && curl -sf --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1 && {
        echo "export DOCKER_HOST=unix://$sock"; exit 0; }
      sleep 0.2
    done
    echo "dockerd did not come up; log tail:" >&2; tail -n 30 "$dir/dockerd.log" >&2; exit 1
    ;;
  stop)
    if [[ -f $dir/docker.pid ]]; then
      pid=$(cat "$dir/docker.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    fi
    echo "stopped (data kept in $dir/data; rm -rf $dir to discard)"
    ;;
  *) echo "usage: $0 start|stop [DIR]" >&2; exit 2 ;;
esac

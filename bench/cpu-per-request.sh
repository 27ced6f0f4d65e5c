#!/usr/bin/env bash
# CPU time the server spends per request, steadier than req/s for comparing two versions of the
# code: the service runs pinned to CPU 0 and autocannon to CPU 1, and the server's main-thread
# user+system time (from /proc) is divided by the requests answered in each 5 s load.
# Usage: bench/cpu-per-request.sh [path]   (default /api/v1/auth/me; {task} becomes a task id)
set -euo pipefail
cd "$(dirname "$0")/.."
path="${1:-/api/v1/auth/me}"
target="$(mktemp -d)/target.json"
taskset -c 0 npx tsx bench/serve-pinned.ts "$target" > /dev/null 2>&1 &
for _ in $(seq 120); do [ -s "$target" ] && break; sleep 0.5; done
field() { node -p "require('$target').$1"; }
url=$(field url); bare=$(field bare); token=$(field token); pid=$(field pid); task=$(field task)
trap 'kill -TERM "$pid" 2>/dev/null || true' EXIT
path="${path//\{task\}/$task}"
# utime + stime in clock ticks (CLK_TCK 100: 1 tick = 10,000,000 ns).
cpu() { awk '{print $14 + $15}' "/proc/$pid/task/$pid/stat"; }
measure() {
  local before after answered rate
  before=$(cpu)
  read -r answered rate < <(taskset -c 1 node_modules/.bin/autocannon -j -c 10 -d 5 -H "authorization=Bearer $token" "$1" 2>/dev/null |
    node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const j=JSON.parse(s);console.log(j.requests.total, Math.round(j.requests.average))})")
  after=$(cpu)
  echo "$rate req/s, $(( (after - before) * 10000000 / answered )) ns CPU per request"
}
taskset -c 1 node_modules/.bin/autocannon -c 10 -d 2 -H "authorization=Bearer $token" "$url$path" > /dev/null 2>&1
echo "bare Fastify: $(measure "$bare/")"
for _ in 1 2 3; do echo "$path: $(measure "$url$path")"; done

#!/usr/bin/env bash
# CPU time the server spends per request, steadier than req/s for comparing two versions of the
# code: the service runs pinned to CPU 0 and autocannon to CPU 1, and the server's main-thread
# user+system time (from /proc) is divided by the requests answered in each 5 s load.
# Usage: bench/cpu-per-request.sh [path] [json-body]
#   default GET /api/v1/auth/me; {task} in the path becomes a task id. With a body the request is
#   a POST of it, {tree} becoming a fresh tree for each load (so creates stay under the plan's
#   50,000 tasks per tree), e.g. bench/cpu-per-request.sh /api/v1/tasks '{"tree_id":"{tree}","title":"Roses"}'
# BENCH_HEADERS adds headers to every request, one `name=value` a line (an MCP call's, say:
# accept, mcp-protocol-version, mcp-method, mcp-name; see bench/README.md).
# With DATABASE_URL set the service runs on PostgreSQL (its server processes are not counted).
set -euo pipefail
cd "$(dirname "$0")/.."
path="${1:-/api/v1/auth/me}"
body="${2:-}"
target="$(mktemp -d)/target.json"
taskset -c 0 npx tsx bench/serve-pinned.ts "$target" > /dev/null 2>&1 &
for _ in $(seq 120); do [ -s "$target" ] && break; sleep 0.5; done
field() { node -p "require('$target').$1"; }
url=$(field url); bare=$(field bare); token=$(field token); pid=$(field pid); task=$(field task)
trap 'kill -TERM "$pid" 2>/dev/null || true' EXIT
path="${path//\{task\}/$task}"
body="${body//\{task\}/$task}"
# The request options of load $1 (0 = warm-up): a POST of the body in that load's tree, or nothing.
request() {
  while IFS= read -r line; do [ -n "$line" ] && printf '%s\n' -H "$line"; done <<< "${BENCH_HEADERS:-}"
  [ -z "$body" ] && return 0
  printf '%s\n' -m POST -H "content-type=application/json" -b "${body//\{tree\}/$(field "trees[$1]")}"
}
# utime + stime in clock ticks (CLK_TCK 100: 1 tick = 10,000,000 ns).
cpu() { awk '{print $14 + $15}' "/proc/$pid/task/$pid/stat"; }
measure() {
  local url="$1" before after answered rate failed
  shift
  before=$(cpu)
  read -r answered rate failed < <(taskset -c 1 node_modules/.bin/autocannon -j -c 10 -d 5 -H "authorization=Bearer $token" "$@" "$url" 2>/dev/null |
    node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const j=JSON.parse(s);console.log(j.requests.total, Math.round(j.requests.average), j.non2xx + j.errors)})")
  after=$(cpu)
  echo "$rate req/s, $(( (after - before) * 10000000 / answered )) ns CPU per request$([ "$failed" != 0 ] && echo ", $failed FAILED")"
}
mapfile -t warm < <(request 0)
taskset -c 1 node_modules/.bin/autocannon -c 10 -d 2 -H "authorization=Bearer $token" "${warm[@]}" "$url$path" > /dev/null 2>&1
echo "bare Fastify: $(measure "$bare/")"
for run in 1 2 3; do
  mapfile -t options < <(request "$run")
  echo "${body:+POST }$path: $(measure "$url$path" "${options[@]}")"
done

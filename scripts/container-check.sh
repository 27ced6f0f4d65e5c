#!/usr/bin/env bash
# Replays the Dockerfile outside Docker, so the recipe cannot rot where Docker cannot build.
#
#  1. copies the build context (the checkout's files minus .dockerignore) to a temp dir;
#  2. runs every RUN line of the Dockerfile's build stage there, in order (npm ci, rebuild,
#     build, prune): the very commands, read from the Dockerfile, not a copy of them;
#  3. assembles the runtime image's /app from the runtime stage's `COPY --from=build` lines;
#  4. starts its CMD with the stage's ENV (DATA_DIR in a temp dir; as the unprivileged user
#     `nobody` when run as root) and runs its HEALTHCHECK command until it passes;
#  5. packs the package and installs the tarball globally into a temp prefix, as
#     `npm install -g` would, and runs `tasktree --version` from there;
#  6. validates compose.yaml (`docker compose config` when available, else a YAML parse and
#     the checks below).
# Not replayed: the runtime stage's own RUN line (mkdir/chown/ln, which need root) and the base
# images themselves (Node here is the host's). Run from a clean clone by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
log() { printf '\n== container-check: %s\n' "$*"; }
fail() { printf 'container-check: %s\n' "$*" >&2; exit 1; }

dockerfile="$root/Dockerfile"
# Lines of one stage (from its FROM ... AS name to the next FROM), one instruction per line.
stage() { awk -v name="$1" 'toupper($1) == "FROM" { inside = (tolower($NF) == name); next } inside' "$dockerfile"; }
json_words() { node -e 'for (const w of JSON.parse(process.argv[1])) console.log(w)' "$1"; }

log "build context"
context="$work/app"
mkdir -p "$context"
mapfile -t ignored < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$root/.dockerignore" | grep -v '^$')
(cd "$root" && git ls-files -z --cached --others --exclude-standard) | while IFS= read -r -d '' file; do
  [ -e "$root/$file" ] || continue
  for pattern in "${ignored[@]}"; do
    # shellcheck disable=SC2053 # the pattern is a glob on purpose
    if [[ "$file" == $pattern || "$file" == $pattern/* ]]; then continue 2; fi
  done
  printf '%s\0' "$file"
done | (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$context"

log "build stage"
mapfile -t build_runs < <(stage build | sed -n 's/^RUN[[:space:]]\{1,\}//p')
[ "${#build_runs[@]}" -gt 0 ] || fail "no RUN lines in the build stage of $dockerfile"
for command in "${build_runs[@]}"; do
  printf -- '-- RUN %s\n' "$command"
  (cd "$context" && sh -c "$command")
done

log "runtime stage"
runtime="$work/runtime"
mkdir -p "$runtime"
while read -r source target; do
  relative="${source#/app/}"
  [ -e "$context/$relative" ] || fail "COPY --from=build $source: nothing at $relative after the build"
  mkdir -p "$(dirname "$runtime/$target")"
  cp -a "$context/$relative" "$runtime/$target"
  printf -- '-- COPY %s %s\n' "$source" "$target"
done < <(stage runtime | awk 'toupper($1) == "COPY" && $2 ~ /^--from=build/ { print $(NF-1), $NF }')
declare -a runtime_env=()
while read -r assignment; do runtime_env+=("$assignment"); done < <(stage runtime | sed -n 's/^ENV[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)=\(.*\)$/\1=\2/p')
mapfile -t cmd < <(json_words "$(stage runtime | sed -n 's/^CMD[[:space:]]\{1,\}//p')")
mapfile -t healthcheck < <(json_words "$(stage runtime | sed -n 's/^HEALTHCHECK.*CMD[[:space:]]\{1,\}//p')")
[ "${#cmd[@]}" -gt 0 ] && [ "${#healthcheck[@]}" -gt 0 ] || fail "the runtime stage needs a JSON-form CMD and HEALTHCHECK"

port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
data="$work/data"
mkdir -p "$data"
as_service=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  chown 65534:65534 "$data"
  as_service=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
service_env=(env -i "PATH=$PATH" "HOME=$data" "${runtime_env[@]}" "DATA_DIR=$data" HOST=127.0.0.1 "PORT=$port" LOG_LEVEL=warn)
(cd "$runtime" && exec "${as_service[@]}" "${service_env[@]}" "${cmd[@]}") &
server_pid=$!
healthy=""
for _ in $(seq 1 60); do
  if (cd "$runtime" && "${service_env[@]}" "${healthcheck[@]}"); then healthy=yes; break; fi
  kill -0 "$server_pid" 2>/dev/null || fail "the service exited before it was healthy"
  sleep 1
done
[ -n "$healthy" ] || fail "HEALTHCHECK never passed"
echo "-- HEALTHCHECK passes: ${healthcheck[*]} (as uid $(stat -c %u "$data"))"
version="$(node -p 'require(process.argv[1]).version' "$runtime/package.json")"
[ "$(cd "$runtime" && "${service_env[@]}" node bin/tasktree.js --version)" = "$version" ] || fail "bin/tasktree.js --version in the runtime image"
kill "$server_pid"
wait "$server_pid" || true
server_pid=""

log "npm pack and a global install"
(cd "$context" && npm pack --ignore-scripts --silent --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/tasktree-*.tgz)"
npm install -g --prefix "$work/global" "$tarball" --no-audit --no-fund --loglevel=error
installed="$(cd / && env -i "PATH=$PATH" "$work/global/bin/tasktree" --version)"
[ "$installed" = "$version" ] || fail "global install: tasktree --version printed '$installed', want $version"
echo "-- $work/global/bin/tasktree --version: $installed"

log "compose.yaml"
if docker compose version >/dev/null 2>&1; then
  (cd "$root" && TASKTREE_SECRET=check docker compose config --quiet)
else
  echo "-- no docker compose here: YAML parse and shape checks"
  (cd "$context" && node --input-type=module - "$root/compose.yaml" <<'EOF'
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
const compose = YAML.parse(readFileSync(process.argv[2], 'utf8'), { merge: true });
const problems = [];
for (const name of ['app1', 'app2', 'postgres', 'redis', 'minio']) if (compose.services?.[name] === undefined) problems.push(`no service ${name}`);
for (const name of ['app1', 'app2']) {
  const app = compose.services?.[name] ?? {};
  if (app.build !== '.' && app.build?.context !== '.') problems.push(`${name} does not build this Dockerfile`);
  for (const key of ['SECRET', 'PUBLIC_URL', 'DATABASE_URL', 'REDIS_URL', 'BLOB_STORE_URL', 'S3_ENDPOINT', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
    if (app.environment?.[key] === undefined) problems.push(`${name} lacks ${key}`);
  }
}
for (const [name, service] of Object.entries(compose.services ?? {})) {
  for (const mount of service.volumes ?? []) {
    const volume = String(mount).split(':')[0];
    if (!volume.startsWith('.') && !volume.startsWith('/') && !(volume in (compose.volumes ?? {}))) problems.push(`${name} mounts undeclared volume ${volume}`);
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`-- ${Object.keys(compose.services).length} services: ${Object.keys(compose.services).join(', ')}`);
EOF
  )
fi
log "ok"

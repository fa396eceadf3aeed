#!/usr/bin/env bash
# Proves that a clone with nothing beside it is enough: clones the committed tree into a fresh folder
# with no neighbours, builds the demo content there and runs `npm start` until its health check answers.
# The installed node_modules is hard-linked in (nothing is downloaded); everything else comes from git.
# Run by .ci/run beside `npm test`; by hand: bash packages/stack/bin/bare-clone-check.sh
set -euo pipefail
src="$(cd "$(dirname "$0")/../../.." && pwd)"
work="$(mktemp -d /tmp/helix-bare-XXXXXX)"
# Below Linux's ephemeral ports (32768-60999): the tests running beside it listen on and connect from
# ports the kernel picks there, which could take the portal's between the start's check and its listen.
# Two CI runs side by side each need three ports of their own: a run takes the first slot (31300,
# 31310, ... 31390) whose lock file it can hold, and holds it until it ends (the kernel lets go of the
# lock however it ends); BARE_CHECK_PORT names one.
take_slot() {
  local p
  for p in $(seq 31300 10 31390); do
    exec {slot_fd}>"/tmp/helix-bare-$p.lock"
    if flock -n "$slot_fd"; then
      port=$p
      return 0
    fi
    exec {slot_fd}>&-
  done
  echo '[bare] every port slot 31300-31390 is held by another run' >&2
  exit 1
}
if [ -n "${BARE_CHECK_PORT:-}" ]; then port=$BARE_CHECK_PORT; else take_slot; fi
db="helix_bare_$(date +%s)_$$"
pid=''
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -f "$work/start.log" ]; then
    echo "[bare] failed (exit $status); the last lines of npm start's output:" >&2
    tail -n 40 "$work/start.log" >&2
  fi
  if [ -n "$pid" ]; then kill -TERM -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# Stopped (CI stops it when another step fails): clean up as at a normal end.
trap 'exit 143' TERM
trap 'exit 130' INT

git clone -q "$src" "$work/repo"
cp -al "$src/node_modules" "$work/repo/node_modules"
for nm in "$src"/apps/*/node_modules "$src"/packages/*/node_modules; do
  [ -d "$nm" ] && cp -al "$nm" "$work/repo/${nm#"$src"/}"
done
# The hard-linked install is the one package-lock.json describes: keep start.mjs from reinstalling.
touch "$work/repo/node_modules/.package-lock.json"
cd "$work/repo"
echo "[bare] $(ls -A "$work") is all there is in $work"

echo '[bare] building the demo content'
node --import tsx packages/demo-content/src/build-demo-models.ts "$work/demo-out"

# npm start in the background, then wait until its health check answers and it says it is running.
start_portal() {
  echo "[bare] npm start (portal on 127.0.0.1:$port)"
  # HELIX_STOP_WITH_PID: the portal stops when this script ends, even by SIGKILL (no trap runs then).
  set -m
  # Its own Redis key prefix too: CI runs this beside the other tests, which share the machine's Redis.
  DATABASE_URL="postgresql://postgres@127.0.0.1:5432/$db" PORT="$port" VIEWER_PORT="$((port + 1))" \
    STRIPE_LOCAL_PORT="$((port + 2))" REDIS_PREFIX="$db" HELIX_STOP_WITH_PID=$$ npm start >"$work/start.log" 2>&1 &
  pid=$!
  set +m
  for _ in $(seq 1 300); do
    # The answer that said ready is the one printed: on a loaded machine a second ask may meet a
    # readiness check that timed out (503) a moment later.
    if ready=$(curl -fsS "http://127.0.0.1:$port/api/health/ready" 2>/dev/null) &&
      grep -q 'Helix is running' "$work/start.log"; then
      echo "$ready"
      curl -fsS -o /dev/null "http://127.0.0.1:$port/login"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 1
  done
  echo '[bare] npm start did not come up; its output:' >&2
  cat "$work/start.log" >&2
  exit 1
}

stop_portal() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=''
  # npm start's processes (API, worker, viewer, stripe-local, a Redis or PGlite it started) stop in
  # process groups of their own and may still be writing into .data for a moment on a loaded machine:
  # the next step (rm -rf .data) waits until no process but this script works in the clone.
  for _ in $(seq 1 60); do
    # Every process whose working folder is the clone, but this script (find itself runs from /).
    left=$(cd / && find /proc/[0-9]*/cwd -maxdepth 0 -lname "$work/repo*" 2>/dev/null |
      sed -n 's|^/proc/\([0-9]*\)/cwd$|\1|p' | grep -vx "$$" | tr '\n' ' ' || true)
    [ -z "$left" ] && return 0
    sleep 1
  done
  echo "[bare] processes still running in $work/repo 60 s after the stop:" >&2
  for p in $left; do ps -o pid=,args= -p "$p" >&2 || true; done
  exit 1
}

start_portal
node packages/stack/bin/demo-login-check.mjs "http://127.0.0.1:$port"
echo '[bare] npm start is up in a clone with nothing beside it'

# A fresh stripe-local beside a database that keeps the old Stripe ids (rm -rf .data with the machine's
# PostgreSQL, or a second clone on the same machine): the demo tenant must converge, not lose its plan
# to the reconcile that runs at the worker's start.
stop_portal
rm -rf .data
start_portal
node packages/stack/bin/demo-login-check.mjs "http://127.0.0.1:$port" 20
echo '[bare] after rm -rf .data beside the same database the demo owner still has a plan and models'

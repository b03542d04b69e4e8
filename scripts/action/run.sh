#!/usr/bin/env bash
# The GitHub Action's work (action.yml at the repository root), kept in a script so npm test runs
# it (test/action.test.ts). `run.sh start` starts loyalty-sim in the job's background, waits for
# its health check, and exports LOYALTY_SIM_URL; `run.sh stop` stops it with SIGTERM (so --data
# is flushed) and prints the end of its log.
#
# Inputs come as LOYALTY_SIM_ACTION_* variables (action.yml maps its inputs to them):
#   PORT (4747; 0: any free port), SEED (1), SCENARIOS (files, one a line),
#   FIXTURES (a file), VERSION (empty: the job's own node_modules/.bin/loyalty-sim, else the
#   action's version; or any version, tag or tarball npm installs), ARGS (more flags),
#   TIMEOUT (seconds to wait for health, 60).
# GitHub's variables: GITHUB_WORKSPACE (relative paths start there), GITHUB_ACTION_PATH (this
# repository), RUNNER_TEMP (the log, the pid file, an installed version), GITHUB_ENV, GITHUB_OUTPUT.
set -euo pipefail

mode="${1:?usage: run.sh start|stop}"
state="${RUNNER_TEMP:?RUNNER_TEMP is not set}/loyalty-sim"
log="$state/loyalty-sim.log"
pidfile="$state/loyalty-sim.pid"

fail() {
  echo "::error title=loyalty-sim::$1"
  exit 1
}

if [ "$mode" = stop ]; then
  [ -f "$pidfile" ] || { echo "loyalty-sim: not started by this job (no $pidfile): nothing to stop"; exit 0; }
  pid="$(cat "$pidfile")"
  if kill -TERM "$pid" 2>/dev/null; then
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      echo "loyalty-sim: still running 10 s after SIGTERM, killed"
    fi
  fi
  rm -f "$pidfile"
  echo "loyalty-sim stopped; the end of its log ($log):"
  tail -n 20 "$log" 2>/dev/null || true
  exit 0
fi
[ "$mode" = start ] || fail "unknown mode $mode: start or stop"

cd "${GITHUB_WORKSPACE:-$PWD}"
mkdir -p "$state"
[ ! -f "$pidfile" ] || ! kill -0 "$(cat "$pidfile")" 2>/dev/null || fail "loyalty-sim already runs in this job (pid $(cat "$pidfile")); stop it first"

# Which loyalty-sim: the job's own (the version its lockfile pins) or the one asked for, installed
# into the runner's temp folder. Either way its bin runs as the simulator's own process, so the pid
# kept is the simulator's and SIGTERM reaches it directly.
version="${LOYALTY_SIM_ACTION_VERSION:-}"
if [ -z "$version" ] && [ -x node_modules/.bin/loyalty-sim ]; then
  bin="$PWD/node_modules/.bin/loyalty-sim"
else
  if [ -z "$version" ]; then
    version="$(node -p 'require(process.argv[1]).version' "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}/package.json")"
  fi
  # A version or dist-tag names the registry's package; a path, tarball or URL is given to npm as is.
  case "$version" in
    */* | *.tgz | .*) spec="$version" ;;
    *) spec="loyalty-sim@$version" ;;
  esac
  prefix="$state/install"
  rm -rf "$prefix" && mkdir -p "$prefix"
  echo "loyalty-sim: installing $spec"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock "$spec" >"$state/install.log" 2>&1 || { cat "$state/install.log"; fail "npm install $spec failed"; }
  bin="$prefix/node_modules/.bin/loyalty-sim"
fi

args=(--port "${LOYALTY_SIM_ACTION_PORT:-4747}" --seed "${LOYALTY_SIM_ACTION_SEED:-1}" --no-exit-with-parent)
[ -z "${LOYALTY_SIM_ACTION_FIXTURES:-}" ] || args+=(--fixtures "$LOYALTY_SIM_ACTION_FIXTURES")
# One file a line (a name may hold spaces), blank lines and surrounding blanks dropped.
while IFS= read -r line; do
  file="$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')"
  [ -z "$file" ] || args+=(--scenario "$file")
done <<<"${LOYALTY_SIM_ACTION_SCENARIOS:-}"
# More flags are words, as on a command line, never globbed.
set -f
# shellcheck disable=SC2206
extra=(${LOYALTY_SIM_ACTION_ARGS:-})
set +f
# (The array spelled so that bash 3, macOS's, takes an empty one under set -u.)
args+=(${extra[@]+"${extra[@]}"})

# In the background, in a session of its own where there is setsid (Linux), stdin closed, output to
# the log: the step's end leaves it running; the runner ends it with the job if `stop` does not.
: >"$log"
detach=()
command -v setsid >/dev/null && detach=(setsid)
${detach[@]+"${detach[@]}"} "$bin" "${args[@]}" </dev/null >"$log" 2>&1 &
pid=$!
echo "$pid" >"$pidfile"

# The banner names the URL (the port may be 0); then the health check must answer ok.
deadline=$((SECONDS + ${LOYALTY_SIM_ACTION_TIMEOUT:-60}))
url=""
while [ -z "$url" ]; do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$pidfile"
    cat "$log"
    fail "loyalty-sim exited before it was ready (its output is above)"
  fi
  [ "$SECONDS" -lt "$deadline" ] || { cat "$log"; fail "loyalty-sim printed no URL within ${LOYALTY_SIM_ACTION_TIMEOUT:-60} s"; }
  url="$(sed -n 's/^loyalty-sim .* listening on \(http[^ ]*\).*$/\1/p' "$log" | head -n 1)"
  [ -n "$url" ] || sleep 0.2
done
until node -e 'fetch(process.argv[1] + "/__sim/health").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url"; do
  [ "$SECONDS" -lt "$deadline" ] || { cat "$log"; fail "$url/__sim/health did not answer ok within ${LOYALTY_SIM_ACTION_TIMEOUT:-60} s"; }
  sleep 0.2
done

echo "LOYALTY_SIM_URL=$url" >>"${GITHUB_ENV:?GITHUB_ENV is not set}"
{
  echo "url=$url"
  echo "pid=$pid"
  echo "log=$log"
} >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
echo "loyalty-sim ready at $url (pid $pid, log $log)"

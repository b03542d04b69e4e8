#!/usr/bin/env bash
# The GitHub Action's work (action.yml at the repository root), kept in a script so npm test runs
# it (test/ci/action.test.ts). `run.sh start` starts loyalty-sim in the job's background, waits for
# its health check, and exports LOYALTY_SIM_URL; `run.sh stop` stops it with SIGTERM (so --data
# is flushed) and prints the end of its log.
#
# Inputs come as LOYALTY_SIM_ACTION_* variables (action.yml maps its inputs to them), each checked
# before any use (inputs.sh): PORT (4747; 0: any free port), SEED (1), SCENARIOS (files, one a
# line), FIXTURES (a file), VERSION (install.sh: empty for the job's own
# node_modules/.bin/loyalty-sim, else this action's checkout; or a tarball or package folder),
# ARGS (more flags), TIMEOUT (seconds to wait for health, 60), STOP (false here).
# GitHub's variables: GITHUB_WORKSPACE (relative paths start there), GITHUB_ACTION_PATH (this
# repository), RUNNER_TEMP (the log, the pid file, an installed version), GITHUB_ENV, GITHUB_OUTPUT.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=inputs.sh
. "$here/inputs.sh"
# shellcheck source=install.sh
. "$here/install.sh"

mode="${1:-}"
state="${RUNNER_TEMP:?RUNNER_TEMP is not set}/loyalty-sim"
log="$state/loyalty-sim.log"
pidfile="$state/loyalty-sim.pid"

# The pid the start step kept, if the file holds one (a pid is all kill may get: -1 is every process).
kept_pid() {
  local pid
  [ -f "$pidfile" ] || return 1
  pid=$(head -c 20 "$pidfile" 2>/dev/null) || return 1
  [[ $pid =~ ^[1-9][0-9]{0,9}$ ]] || return 1
  printf '%s' "$pid"
}

# Whether process PID runs and is a loyalty-sim (the bin's path names it, as does $state): a pid
# the system gave to another process since is not signalled.
is_simulator() {
  local command
  command=$(ps -p "$1" -o command= 2>/dev/null) || return 1
  [[ $command == *loyalty-sim* ]]
}

if [ "$mode" = stop ]; then
  [ -f "$pidfile" ] || { echo "loyalty-sim: not started by this job (no $pidfile): nothing to stop"; exit 0; }
  pid=$(kept_pid) || { rm -f "$pidfile"; fail "$pidfile holds no process id: nothing was stopped"; }
  if kill -0 "$pid" 2>/dev/null && ! is_simulator "$pid"; then
    rm -f "$pidfile"
    echo "loyalty-sim: process $pid is no longer the simulator this job started (the pid went to another process): nothing to stop"
    exit 0
  fi
  if kill -TERM "$pid" 2>/dev/null; then
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      echo "loyalty-sim: still running 10 s after SIGTERM, killed"
    fi
  fi
  rm -f "$pidfile"
  echo "loyalty-sim stopped; the end of its log ($log):"
  tail -n 20 "$log" >"$state/log-end" 2>/dev/null || true
  print_untrusted "$state/log-end"
  exit 0
fi
[ "$mode" = start ] || fail "unknown mode $(show "$mode"): start or stop"

cd "${GITHUB_WORKSPACE:-$PWD}"
check_inputs
mkdir -p "$state"
if pid=$(kept_pid) && is_simulator "$pid"; then fail "loyalty-sim already runs in this job (pid $pid); stop it first"; fi
choose_bin

# Files as --flag=value, so that no name is read as a flag of its own.
args=(--port "$port" --seed "$seed" --no-exit-with-parent)
[ -z "$fixtures" ] || args+=("--fixtures=$fixtures")
for file in ${scenarios[@]+"${scenarios[@]}"}; do args+=("--scenario=$file"); done
# (Arrays spelled so that bash 3, macOS's, takes an empty one under set -u.)
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
deadline=$((SECONDS + 10#$timeout))
url=""
url_pattern='^https?://[][A-Za-z0-9.:-]+$'
while [ -z "$url" ]; do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$pidfile"
    print_untrusted "$log"
    fail "loyalty-sim exited before it was ready (its output is above)"
  fi
  [ "$SECONDS" -lt "$deadline" ] || { print_untrusted "$log"; fail "loyalty-sim printed no URL within $timeout s"; }
  url="$(sed -n 's/^loyalty-sim .* listening on \(http[^ ]*\).*$/\1/p' "$log" | head -n 1)"
  [ -n "$url" ] || sleep 0.2
done
[[ $url =~ $url_pattern ]] || { print_untrusted "$log"; fail "loyalty-sim printed a URL that is no origin: $(show "$url")"; }
until node -e 'fetch(process.argv[1] + "/__sim/health").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url"; do
  [ "$SECONDS" -lt "$deadline" ] || { print_untrusted "$log"; fail "$url/__sim/health did not answer ok within $timeout s"; }
  sleep 0.2
done

echo "LOYALTY_SIM_URL=$url" >>"${GITHUB_ENV:?GITHUB_ENV is not set}"
{
  echo "url=$url"
  echo "pid=$pid"
  echo "log=$log"
} >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
echo "loyalty-sim ready at $url (pid $pid, log $log)"

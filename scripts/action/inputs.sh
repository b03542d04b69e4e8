# The Action's inputs (LOYALTY_SIM_ACTION_*), each checked against a strict pattern before any use,
# and what the step prints from elsewhere, kept from running as a workflow command; sourced by run.sh. A value reaches no arithmetic ($(( )) and [[ -lt ]] evaluate a subscript's
# $(...)), no eval, no glob, no echo, no option of another program: bash's =~ and the test builtin
# `[` only compare. A value shown in a message is shortened, its control characters replaced.

# The most characters of any input (a list of files, of flags).
MAX_INPUT=4096

# GitHub's workflow-command escaping of a message, so that no value ends the ::error line and
# starts a command of its own (a newline, then ::add-mask:: or ::set-env).
escape_data() {
  local v=$1
  v=${v//'%'/%25}
  v=${v//$'\r'/%0D}
  v=${v//$'\n'/%0A}
  printf '%s' "$v"
}

fail() {
  echo "::error title=loyalty-sim::$(escape_data "$1")"
  exit 1
}

# A file of text from elsewhere (the simulator's log, npm's output) into the step's log, where no
# line of it runs as a workflow command: GitHub's ::stop-commands:: with a token of this call.
print_untrusted() {
  local token
  token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  echo "::stop-commands::$token"
  cat "$1" 2>/dev/null || true
  echo "::$token::"
}

# A value in quotes for a message: at most 80 characters, control characters but CR and LF (which
# escape_data encodes) as "?".
show() {
  local v=${1:0:80}
  v=${v//[$'\001'-$'\011'$'\013'$'\014'$'\016'-$'\037'$'\177']/?}
  if [ "${#1}" -gt 80 ]; then v="$v... (${#1} characters)"; fi
  printf '"%s"' "$v"
}

# check NAME VALUE REGEX WHAT: the step fails unless VALUE matches REGEX whole.
check() {
  [[ $2 =~ $3 ]] || fail "$1: $(show "$2") is not $4"
}

# A whole number from MIN to MAX, without leading zeros (bash would read 010 as octal).
check_number() {
  check "$1" "$2" '^(0|[1-9][0-9]{0,9})$' "$5"
  if [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then fail "$1: $(show "$2") is not $5"; fi
}

# Text of a file name or flags: not too long, no control character (a tab or a newline only where
# ALLOWED says), not read as an option.
check_text() {
  local name=$1 value=$2 allowed=${3:-}
  if [ "${#value}" -gt "$MAX_INPUT" ]; then fail "$name: $(show "$value") is longer than $MAX_INPUT characters"; fi
  local rest=$value
  if [ -n "$allowed" ]; then rest=${rest//[$allowed]/}; fi
  if [[ $rest == *[[:cntrl:]]* ]]; then fail "$name: $(show "$value") holds a control character"; fi
}

# Files of the job's checkout: each relative to the workspace (or absolute within it), a regular
# file there once links are followed (a link may not lead out of it), not read as an option. One
# node for them all, which names the first that is not.
check_files() {
  local name=$1 value found
  shift
  for value in "$@"; do
    check_text "$name" "$value"
    if [[ $value == -* ]]; then fail "$name: $(show "$value") starts with \"-\": give a path relative to the workspace, such as ./$value"; fi
  done
  found=$(node -e '
    const { realpathSync, statSync } = require("node:fs");
    const { resolve, sep } = require("node:path");
    const [workspace, ...files] = process.argv.slice(1);
    const root = realpathSync(workspace);
    const first = (i, why) => { process.stdout.write(`${i} ${why}`); process.exit(0); };
    files.forEach((file, i) => {
      let real;
      try { real = realpathSync(resolve(root, file)); } catch { first(i, "missing"); }
      if (!real.startsWith(root + sep)) first(i, real === root ? "not-a-file" : "outside");
      if (!statSync(real).isFile()) first(i, "not-a-file");
    });
  ' "$PWD" "$@") || fail "$name: the files could not be checked (node failed)"
  [ -n "$found" ] || return 0
  local index=${found%% *} why=${found#* }
  [[ $index =~ ^[0-9]+$ ]] || fail "$name: the files could not be checked (node answered $(show "$found"))"
  local files=("$@")
  value=${files[$index]}
  case $why in
    missing) fail "$name: $(show "$value") does not exist in the workspace ($PWD): give a path relative to it, after actions/checkout" ;;
    outside) fail "$name: $(show "$value") leads out of the workspace ($PWD): give a file of the job's checkout" ;;
    *) fail "$name: $(show "$value") is not a file" ;;
  esac
}

# version: an explicit package, never a name for the registry to resolve (this project publishes
# nothing as "loyalty-sim" there, so anyone could): an https URL of a tarball, or a path (relative
# to the workspace) of a tarball or of a built package folder. Sets version_spec, what npm gets:
# the URL, or the path made absolute (npm would read "owner/repo" as a GitHub repository).
check_version() {
  local value=$1 path
  version_spec=""
  [ -n "$value" ] || return 0
  check_text version "$value"
  local give="give the https URL or the path of a tarball (.tgz) or of a built package folder, or leave version empty to run the job's node_modules/.bin/loyalty-sim or else this action's own version"
  if [[ $value =~ ^[a-zA-Z][a-zA-Z0-9+.-]*: ]] && ! [[ $value =~ ^https:// ]]; then fail "version: $(show "$value") is not an https URL or a path: $give"; fi
  if [[ $value =~ ^https:// ]]; then
    check version "$value" '^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~%+-]+)*/[A-Za-z0-9._~%+-]+\.(tgz|tar\.gz)$' "an https URL of a tarball (.tgz), without user, query or fragment"
    version_spec=$value
    return 0
  fi
  if [[ $value == -* ]]; then fail "version: $(show "$value") starts with \"-\": $give"; fi
  if [[ $value == /* ]]; then path=$value; else path="$PWD/$value"; fi
  local tarball='\.(tgz|tar\.gz)$'
  if [ -f "$path" ] && [[ $path =~ $tarball ]]; then version_spec=$path; return 0; fi
  if [ -d "$path" ] && [ -f "$path/package.json" ]; then version_spec=$path; return 0; fi
  local named='^(loyalty-sim@)?[A-Za-z0-9._^~=<>*|+ -]+$'
  if [[ $value =~ $named ]] && ! [[ $value =~ $tarball ]]; then
    fail "version: $(show "$value") is a version or dist-tag, which would install the registry's package \"loyalty-sim\": this project publishes none there, and anyone could; $give"
  fi
  fail "version: $(show "$value") is no tarball (.tgz) or package folder (relative paths start at the workspace, $PWD): $give"
}

# All the start step's inputs, before any of them is used. Sets port, seed, timeout, scenarios
# (an array), fixtures, version_spec and extra (the words of args).
check_inputs() {
  port=${LOYALTY_SIM_ACTION_PORT:-4747}
  check_number port "$port" 0 65535 "a port from 0 to 65535 (0: any free port)"
  seed=${LOYALTY_SIM_ACTION_SEED:-1}
  check_number seed "$seed" 0 2147483647 "a whole number from 0 to 2147483647"
  timeout=${LOYALTY_SIM_ACTION_TIMEOUT:-60}
  check_number timeout "$timeout" 1 3600 "a whole number of seconds from 1 to 3600"
  check stop "${LOYALTY_SIM_ACTION_STOP-false}" '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])?$' "true or false"

  # One file a line (a name may hold spaces), blank lines and surrounding blanks dropped.
  local list=${LOYALTY_SIM_ACTION_SCENARIOS-} line
  check_text scenarios "$list" $'\n'
  scenarios=()
  while IFS= read -r line; do
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    if [ -n "$line" ]; then scenarios+=("$line"); fi
  done <<<"$list"
  if [ "${#scenarios[@]}" -gt 0 ]; then check_files scenarios "${scenarios[@]}"; fi

  fixtures=${LOYALTY_SIM_ACTION_FIXTURES-}
  if [ -n "$fixtures" ]; then check_files fixtures "$fixtures"; fi
  check_version "${LOYALTY_SIM_ACTION_VERSION-}"

  # More flags are words, as on a command line: split at blanks, never globbed nor evaluated.
  local args=${LOYALTY_SIM_ACTION_ARGS-}
  check_text args "$args" $' \t\n'
  set -f
  # shellcheck disable=SC2206
  extra=($args)
  set +f
}

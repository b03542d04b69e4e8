# Which loyalty-sim the Action runs, sourced by run.sh: choose_bin sets bin. In order: the job's own
# node_modules/.bin/loyalty-sim (the version its lockfile pins, after npm ci); else, without
# `version`, this action's own checkout (this repository at the ref the workflow named), built in
# the runner's temp folder; else the package `version` names (checked by check_version: a tarball
# or a folder, never a name for the registry to resolve), installed there. Either way its bin runs
# as the simulator's own process, so the pid kept is the simulator's and SIGTERM reaches it.

# npm's output of a step that failed, then the step fails with WHY.
npm_failed() {
  print_untrusted "$state/install.log"
  fail "$1 (npm's output is above)"
}

# The checkout's files without its dependencies or an earlier build, its dependencies as its
# lockfile pins them (a checkout that has them, a developer's or this repository's tests, lends
# them), then its build: dist/ as the published package has it.
build_checkout() {
  local action=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set} copy="$state/action"
  echo "loyalty-sim: no node_modules/.bin/loyalty-sim in the workspace and no version: building this action's own checkout"
  rm -rf "$copy" && mkdir -p "$copy"
  (cd "$action" && tar -cf - --exclude=./node_modules --exclude=./dist --exclude=./.git .) | (cd "$copy" && tar -xf -)
  : >"$state/install.log"
  if [ -d "$action/node_modules" ]; then
    ln -s "$action/node_modules" "$copy/node_modules"
  else
    (cd "$copy" && npm ci --ignore-scripts --no-audit --no-fund) >>"$state/install.log" 2>&1 || npm_failed "npm ci of this action's checkout failed"
  fi
  (cd "$copy" && npm run build) >>"$state/install.log" 2>&1 || npm_failed "the build of this action's checkout failed"
  bin="$copy/dist/cli/bin.js"
}

choose_bin() {
  if [ -z "$version_spec" ] && [ -x node_modules/.bin/loyalty-sim ]; then
    bin="$PWD/node_modules/.bin/loyalty-sim"
  elif [ -z "$version_spec" ]; then
    build_checkout
  else
    local prefix="$state/install"
    rm -rf "$prefix" && mkdir -p "$prefix"
    echo "loyalty-sim: installing $version_spec"
    # No install script runs: the package is built, and none of its dependencies needs one.
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock --ignore-scripts "$version_spec" >"$state/install.log" 2>&1 || npm_failed "npm install $version_spec failed"
    bin="$prefix/node_modules/.bin/loyalty-sim"
  fi
}

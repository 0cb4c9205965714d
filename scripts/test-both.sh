#!/usr/bin/env bash
# `npm test` after `npm install`: the checks and both test layers, side by side where they can be.
#
#   build ─┬─ Playwright              (the longest: the run's end is its end)
#          ├─ Vitest
#          ├─ typecheck               (nice: these two take what CPU the tests leave idle)
#          └─ lint
#
# One build first (it also compiles the step validators both layers read). Vitest and Playwright then run together:
# each alone leaves a core idle part of the time (Vitest's last, longest files; Playwright's workers waiting on the
# browser and the API). Typecheck and lint read only the sources, which nothing rewrites while the tests run (the
# validators an e2e build writes again are generated files no check reads), so they run beside the tests too, at a
# lower priority, instead of before the build. Nothing stops early when one part fails: every part runs to its end and
# prints its output, and the exit code is non-zero if any failed (typecheck, lint, build, Vitest or Playwright). Every
# line is prefixed with its part. If this script ends early (Ctrl-C, a CI timeout), the parts still running are stopped
# with it (each part's process tree). The last line gives each part's exit code and the seconds from the start to its end.
set -uo pipefail
cd "$(dirname "$0")/.."
# the project's Node (the `node` devDependency) and tools, as under `npm run`, also when this script is run by hand
export PATH="$PWD/node_modules/.bin:$PATH"
bash scripts/ensure-tools.sh || exit 1

started=$(date +%s)
declare -A pid rc took
# the process `$1` and everything it started, children first
killtree() {
  local child
  for child in $(ps -o pid= --ppid "$1"); do killtree "$child"; done
  kill "$1" 2>/dev/null
}
stop() { for p in "${pid[@]}"; do killtree "$p"; done; }
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

# run NAME COMMAND…: the command in the background, its output prefixed with [NAME]; its exit code and seconds in files
tmp=$(mktemp -d)
run() {
  local name=$1
  shift
  (
    "$@" > >(sed -u "s/^/[$name] /") 2>&1
    echo $? > "$tmp/$name.rc"
    echo $(($(date +%s) - started)) > "$tmp/$name.s"
  ) &
  pid[$name]=$!
}

npm run build > >(sed -u 's/^/[build] /') 2>&1
rc[build]=$?
took[build]=$(($(date +%s) - started))
[ "${rc[build]}" -lt 128 ] || exit "${rc[build]}" # stopped by a signal (Ctrl-C): so is the rest

run typecheck nice -n 10 npm run typecheck
run lint nice -n 10 npm run lint
if [ "${rc[build]}" -eq 0 ]; then
  run vitest node_modules/.bin/vitest run
  run playwright node_modules/.bin/playwright test
fi

failed=0
summary="build: exit ${rc[build]} (${took[build]} s)"
[ "${rc[build]}" -eq 0 ] || failed=1
for name in typecheck lint vitest playwright; do
  [ -n "${pid[$name]:-}" ] || continue
  wait "${pid[$name]}"
  unset "pid[$name]"
  code=$(cat "$tmp/$name.rc" 2>/dev/null || echo 1)
  summary+=" · $name: exit $code ($(cat "$tmp/$name.s" 2>/dev/null || echo '?') s)"
  [ "$code" -eq 0 ] || failed=1
done
trap - EXIT INT TERM
rm -rf "$tmp"
echo "$summary · total $(($(date +%s) - started)) s"
exit "$failed"

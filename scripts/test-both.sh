#!/usr/bin/env bash
# The two test layers of `npm test` side by side: Vitest and Playwright (after one build, which also compiles the
# step validators both read). Each layer alone leaves a core idle part of the time (Vitest's last, longest files;
# Playwright's workers waiting on the browser and the API), so together they finish sooner than one after the other.
# Every line is prefixed with its layer; the exit code is non-zero if either layer failed. Vitest's own PID is kept
# and, if this script ends early (Ctrl-C, a CI timeout), Vitest is stopped with it (it stops its workers itself).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-tools.sh
npm run build || exit 1

node_modules/.bin/vitest run > >(sed -u 's/^/[vitest] /') 2>&1 &
unit=$!
trap 'kill "$unit" 2>/dev/null' EXIT INT TERM

node_modules/.bin/playwright test > >(sed -u 's/^/[playwright] /') 2>&1
e2e=$?
wait "$unit"
unit_rc=$?
trap - EXIT INT TERM
echo "vitest: exit $unit_rc · playwright: exit $e2e"
[ "$unit_rc" -eq 0 ] && [ "$e2e" -eq 0 ]

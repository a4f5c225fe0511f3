#!/usr/bin/env bash
# Runs the tests with every process's clock (vitest, payctl, the sandboxes, shells) moved to a given
# local time by libfaketime (Debian's `faketime` package), to hold the suite to passing on any day:
#   scripts/any-day.sh '2026-12-31 23:59:30' [vitest arguments]
# The clock is moved by an offset, so every process started later agrees on the time and it goes on.
set -euo pipefail
cd "$(dirname "$0")/.."
lib=$(find /usr/lib -name libfaketime.so.1 -print -quit 2>/dev/null)
[[ -n $lib ]] || { echo 'any-day: libfaketime not found (apt-get install faketime)' >&2; exit 2; }
[[ $# -ge 1 ]] || { echo "usage: $0 'YYYY-MM-DD HH:MM:SS' [vitest arguments]" >&2; exit 2; }
offset=$(( $(date -d "$1" +%s) - $(date +%s) ))
shift
export LD_PRELOAD=$lib FAKETIME="${offset/#[0-9]/+&}" DONT_FAKE_MONOTONIC=1
echo "any-day: the clock reads $(date '+%F %T %Z') (offset ${offset} s)" >&2
npm run -s build
exec node_modules/.bin/node node_modules/vitest/vitest.mjs run "$@"

#!/usr/bin/env bash
# The main job: set up, then bench every product and print the rendered page.
# Arguments go to the runner, e.g.  scripts/bench.sh --products node,faststream --rate 30000
set -euo pipefail
# Paths given (--results, render's files) are relative to where this was run.
export INIT_CWD="${INIT_CWD:-$PWD}"
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# node directly (not through pnpm): Ctrl-C or SIGTERM reaches the runner alone, which ends its
# children and keeps the results; through pnpm, pnpm exits first and closes the runner's output.
cd apps/runner
exec node --import tsx src/cli.ts "$@"

#!/usr/bin/env bash
# The main job: set up, then bench every product and print the rendered page.
# Arguments go to the runner, e.g.  scripts/bench.sh --products node,faststream --rate 30000
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec pnpm --silent --filter runner bench "$@"

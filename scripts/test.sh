#!/usr/bin/env bash
# The tests: set up, type-check, unit tests, then the integration tests against a real Kafka
# broker that this script starts (and always stops), and the CI workflow's lint.
#   BENCH_TEST_PACKAGE=@bench/adapter-quix bash scripts/test.sh   (that package's tests and what it depends on; CI's per-product jobs)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

filter=()
[ -z "${BENCH_TEST_PACKAGE:-}" ] || filter=(--filter="${BENCH_TEST_PACKAGE}...")
pnpm typecheck
pnpm exec turbo run test "${filter[@]}"
[ -n "${BENCH_TEST_PACKAGE:-}" ] || bash scripts/lint-workflows.sh

broker_log=$(mktemp)
# node directly (not through pnpm) so that SIGTERM reaches the runner, which stops the broker.
(cd apps/runner && exec node --import tsx src/cli.ts broker) >"$broker_log" 2>&1 &
broker_pid=$!
trap 'kill -TERM "$broker_pid" 2>/dev/null; wait "$broker_pid" 2>/dev/null || true; rm -f "$broker_log"' EXIT
for _ in $(seq 1 240); do
  grep -q '^BOOTSTRAP=' "$broker_log" && break
  kill -0 "$broker_pid" 2>/dev/null || { cat "$broker_log"; echo "test: the Kafka broker did not start" >&2; exit 1; }
  sleep 1
done
BENCH_BOOTSTRAP=$(sed -n 's/^BOOTSTRAP=//p' "$broker_log")
[ -n "$BENCH_BOOTSTRAP" ] || { cat "$broker_log"; echo "test: no broker address" >&2; exit 1; }
export BENCH_BOOTSTRAP
echo "test: Kafka at $BENCH_BOOTSTRAP"
pnpm exec turbo run test:integration --concurrency=1 "${filter[@]}"

#!/usr/bin/env bash
# Lints the CI workflows with actionlint, built from the Go module proxy at a pinned version into
# the bench's cache (Go is needed once, to build it).
set -euo pipefail
cd "$(dirname "$0")/.."
ACTIONLINT_VERSION=v1.7.7
bin="${BENCH_CACHE_DIR:-$HOME/.cache/stream-ml-bench}/bin"
actionlint="$bin/actionlint-$ACTIONLINT_VERSION"
if [ ! -x "$actionlint" ]; then
  go=$(command -v go || true)
  [ -n "$go" ] || [ ! -x /usr/local/go/bin/go ] || go=/usr/local/go/bin/go
  [ -n "$go" ] || { echo "lint: actionlint needs Go (1.22 or later) to build once; none on PATH or in /usr/local/go" >&2; exit 1; }
  mkdir -p "$bin"
  tmp=$(mktemp -d)
  GOBIN="$tmp" GOFLAGS=-mod=mod "$go" install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
  mv "$tmp/actionlint" "$actionlint"
  rm -rf "$tmp"
fi
"$actionlint" -color=false .github/workflows/*.yml
echo "lint: actionlint $ACTIONLINT_VERSION found no problem in $(ls .github/workflows/*.yml | tr '\n' ' ')"

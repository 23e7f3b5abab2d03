#!/usr/bin/env bash
# CI smoke of every bench: each bench file behind `npm run bench`, `bench:isolate`
# and `bench:load` runs with BENCH_SMOKE=1 (a few rounds, a few requests), then the
# charts and summaries are drawn from those results (into bench/results/smoke/,
# which git ignores). Proves the benches still run; timings are never asserted.
# Last line: `[bench smoke] passed=N failed=N` (one per bench), read by
# scripts/test-all.sh. Needs `npm run build` first (test-all.sh has done it).
set -uo pipefail
cd "$(dirname "$0")/.."
export BENCH_SMOKE=1 WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true

# Node 22 (the root devDependency) runs the .ts files by type stripping.
NODE=node_modules/.bin/node
[ -x "$NODE" ] || NODE=node
[ -d bench/node_modules ] || npm --prefix bench install --no-audit --no-fund
[ -f dist/index.js ] || npm run --silent build

passed=0
failed=0
for b in algorithms algorithms-workerd stages verify cache-sweep freeze isolate load charts summary; do
  start=$(date +%s)
  # Bounded even if a Worker or wrangler hangs: CI must not wait on a bench.
  if timeout 120 "$NODE" "bench/$b.ts" > "build/bench-smoke-$b.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok      bench/$b.ts ($(( $(date +%s) - start )) s)"
  else
    failed=$((failed + 1))
    echo "FAILED  bench/$b.ts ($(( $(date +%s) - start )) s); its output:"
    tail -40 "build/bench-smoke-$b.log" | sed 's/^/    /'
  fi
done
echo "[bench smoke] passed=$passed failed=$failed"
[ "$failed" -eq 0 ]

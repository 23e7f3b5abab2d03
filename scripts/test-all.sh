#!/usr/bin/env bash
# Everything `npm test` runs (and so CI): build the Wasm core and the package from
# source, then every suite: as-pect (AssemblyScript internals), Vitest in Node 22
# and inside workerd, the shared corpus against the built package in Node 20 (the
# machine's Node), Deno, Bun and headless Chromium, the npm pack check, and the
# examples. Each runner's own report is read back; the last line is the sum:
# `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true
REPORTS=build/reports
rm -rf "$REPORTS" && mkdir -p "$REPORTS"

total_passed=0
total_failed=0
summary=()

record() { # name passed failed
  total_passed=$((total_passed + $2))
  total_failed=$((total_failed + $3))
  summary+=("$(printf '%-22s %6s passed %4s failed' "$1" "$2" "$3")")
}

step() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

step "build (Wasm core from assembly/, TypeScript)"
if ! npm run --silent build; then
  echo "build failed: nothing can be tested"
  echo "0 passed, 1 failed"
  exit 1
fi

step "typecheck (tsc --noEmit over src, test, bench; examples in strict mode)"
if npx tsc -p tsconfig.json --noEmit && npx tsc -p examples/tsconfig.json --noEmit; then record "typecheck" 1 0; else record "typecheck" 0 1; fi

step "as-pect (AssemblyScript internals)"
npx asp --config as-pect.config.js 2>&1 | tee "$REPORTS/as-pect.txt"
# as-pect prints "[Tests]: <passed> / <total>".
read -r ap_pass ap_total < <(sed 's/\x1b\[[0-9;]*m//g' "$REPORTS/as-pect.txt" | awk '/\[Tests\]:/ {print $2, $4}' | tail -1)
if [ -n "${ap_total:-}" ]; then record "as-pect" "$ap_pass" "$((ap_total - ap_pass))"; else record "as-pect (no report)" 0 1; fi

vitest_run() { # name config
  npx vitest run --config "$2" --reporter=default --reporter=json --outputFile.json="$REPORTS/$1.json"
  if [ -s "$REPORTS/$1.json" ]; then
    read -r p f < <(node -e 'const r=require(process.argv[1]);const f=r.numFailedTests;console.log(r.numPassedTests, !r.success && f===0 ? 1 : f)' "$PWD/$REPORTS/$1.json")
    record "$1" "$p" "$f"
  else
    record "$1 (no report)" 0 1
  fi
}

step "Vitest in Node $(node --version) (shared corpus + Node-only tests)"
vitest_run vitest-node vitest.node.config.ts

step "Vitest inside workerd (shared corpus + route guard)"
vitest_run vitest-workerd vitest.workerd.config.ts

step "shared corpus bundles"
rm -rf build/corpus # a failed build must not leave old bundles to run
if ! node test/runtimes/build-corpus.mjs node deno bun browser; then
  record "corpus bundles (build failed)" 0 1
fi

report_run() { # label command... (the command prints `passed=N failed=N`)
  local label=$1; shift
  local file="$REPORTS/${label// /-}.txt"
  "$@" 2>&1 | tee "$file"
  local line
  line=$(grep -o 'passed=[0-9]* failed=[0-9]*' "$file" | tail -1)
  if [ -n "$line" ]; then
    record "$label" "$(echo "$line" | sed 's/passed=\([0-9]*\).*/\1/')" "$(echo "$line" | sed 's/.*failed=\([0-9]*\)/\1/')"
  else
    record "$label (no report)" 0 1
  fi
}
corpus_run() { # name command...
  local name=$1; shift
  report_run "corpus $name" "$@"
}

# The machine's own Node (20 here), not the Node 22 that `npm run` puts first on PATH.
system_node=""
for candidate in $(which -a node); do
  case "$candidate" in *node_modules*) continue ;; esac
  system_node=$candidate
  break
done
step "shared corpus in Node ${system_node:+$($system_node --version)} ($system_node)"
corpus_run "node-$(${system_node:-node} --version)" "${system_node:-node}" build/corpus/node.js

step "shared corpus in Deno"
corpus_run deno npx deno run --allow-read --allow-env build/corpus/deno.js

step "shared corpus in Bun"
corpus_run bun npx bun build/corpus/bun.js

step "shared corpus in headless Chromium"
corpus_run chromium node test/runtimes/run-browser.mjs build/corpus/browser.js

# The pack check and the examples print `[name] passed=N failed=N` like the corpus runners.
step "npm pack check (contents, size, .wasm vs a fresh build, types per condition)"
report_run "npm pack check" node scripts/pack-check.mjs

step "examples (Deno.serve, Bun.serve, Hono on Workers) against the packed package"
report_run examples node test/examples/run-examples.mjs

# Each bench (bench/smoke.sh) in a seconds-long mode: 1 passed per bench that completes.
step "bench smoke (every bench in seconds; timings are never asserted)"
report_run "bench smoke" bash bench/smoke.sh

step "summary"
printf '%s\n' "${summary[@]}"
echo "${total_passed} passed, ${total_failed} failed"
[ "$total_failed" -eq 0 ]

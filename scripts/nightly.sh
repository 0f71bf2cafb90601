#!/usr/bin/env bash
# Nightly corpus run: generate (or fetch) the corpora named in a config file, replay them
# under every dialect, diff against the last complete good run, keep the last good one.
# Usage: scripts/nightly.sh [config.json] [state-folder]
# Exit: 0 nothing broke, 1 something broke (the diff lists it), 2 the run itself failed.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-scripts/nightly.config.json}
state=${2:-reports/nightly}
cli="node bin/dice-dialects.js"
corpora=${NIGHTLY_CORPORA:-corpora/generated/nightly}
mkdir -p "$corpora" "$state"
[ -d dist ] || npm run build --silent

# 1. Corpora: one line per entry: name<TAB>kind<TAB>args…
node -e '
const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const e of c.corpora) {
  if (e.generate) { const g = e.generate; console.log([e.name, "generate", g.dialect, g.games, g.seed, g.format].join("\t")); }
  else if (e.url) console.log([e.name, "url", e.url].join("\t"));
}' "$config" | while IFS=$'\t' read -r name kind a b c d; do
  if [ "$kind" = generate ]; then
    case "$d" in csv) ext=csv ;; opening-book) ext=tsv ;; *) ext=ndjson ;; esac
    out="$corpora/$name.$ext"
    [ -e "$out" ] || $cli generate --dialect "$a" --games "$b" --seed "$c" --format "$d" --out "$out" >/dev/null
  else
    out="$corpora/$name.url"
    echo "$a" > "$out"
  fi
done

# 1b. Fetch entries (`dice-dialects fetch` into $corpora/NAME, continued each night): scripts/nightly-fetch.mjs.
node scripts/nightly-fetch.mjs "$config" "$corpora" >/dev/null || { echo "nightly: bad fetch entry" >&2; exit 2; }

sources=()
for f in "$corpora"/*; do
  case "$f" in *.key.json) continue ;; *.url) sources+=("$(cat "$f")") ;; *) sources+=("$f") ;; esac
done

# 2. Replay under every dialect into a dated run folder (published atomically by the tool).
run="$state/runs/$(date -u +%Y%m%dT%H%M%SZ)"
$cli replay "${sources[@]}" --all-dialects --out "$run" --quiet >/dev/null || { echo "nightly: replay failed" >&2; exit 2; }

# 3. Diff against the last good run; promote this run when nothing broke.
status=0
if [ -e "$state/last-good" ]; then
  $cli diff "$state/last-good" "$run" --out "$run.diff.md" || status=$?
  cat "$run.diff.md"
fi
if [ "$status" -eq 0 ]; then
  ln -sfn "$(realpath "$run")" "$state/last-good.new" && mv -T "$state/last-good.new" "$state/last-good"
  echo "nightly: $run is the new last good run"
else
  echo "nightly: regressions against $(readlink "$state/last-good"); last good run kept" >&2
fi
# Keep the last 7 runs.
ls -1d "$state"/runs/*/ 2>/dev/null | sort | head -n -7 | xargs -r rm -rf
exit "$status"

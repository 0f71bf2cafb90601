#!/usr/bin/env bash
# Nightly corpus run: generate (or fetch) the corpora named in a config file, replay them,
# diff against the last good run, promote the new run only when nothing broke, keep the
# newest runs and always the last good one. The work is in scripts/nightly.mjs.
# Usage: scripts/nightly.sh [config.json] [state-folder] [--allow-gone] [--allow-config-change]
#   config fields: dialects ("all" or names), corpora [{name, generate: {generate options…} | url | fetch: {…}}],
#   set [path=value…], jobs, continueAfterDivergence, allowGone, keep (runs kept, default 7).
#   NIGHTLY_CORPORA: the corpus cache folder (default corpora/generated/nightly).
# Exit: 0 nothing broke, 1 something broke, games are gone, the configuration changed (unless
#   --allow-config-change) or an answer key scores worse, 2 the run itself failed.
#   A closed stdout (| head) does not change the exit code.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
[ -d "$here/dist" ] || (cd "$here" && npm run build --silent)
exec node "$here/scripts/nightly.mjs" "$@"

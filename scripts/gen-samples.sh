#!/usr/bin/env bash
# Regenerates the committed sample corpora under corpora/samples/ (and their answer
# keys under corpora/keys/) deterministically: same commands, same bytes. Every record
# is re-read and replayed while it is written (--verify); the script stops on the first
# record that does not judge as intended is reported, and the script then exits 1
# (the samples are still written: they are what the generator means). See corpora/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.build.json

status=0
gen() { node bin/dice-dialects.js generate --quiet --verify "$@" >/dev/null || { status=1; echo "  ^ in: generate $*" >&2; }; }
S=corpora/samples
K=corpora/keys
rm -rf "$S" "$K"
mkdir -p "$S" "$K"

# reference (Fortemate): fairness reveals in the history format, the ingest wire, canonical NDJSON
gen --dialect reference --games 300 --seed ref-history --format history --out $S/reference/games.history.ndjson.gz
gen --dialect reference --games 200 --seed ref-wire --format ingest-wire --out $S/reference/games.ingest-wire.ndjson.gz
gen --dialect reference --games 200 --seed ref-native --format ndjson --out $S/reference/games.ndjson.gz

# dicechess.com: state maps (flags, highlight resets, gaps, cube), ingest wire, per-turn CSV
gen --dialect dicechess-com --games 200 --seed dc-maps --format dicechess-com --out $S/dicechess-com/games.state-maps.ndjson.gz
gen --dialect dicechess-com --games 200 --seed dc-wire --format ingest-wire --out $S/dicechess-com/games.ingest-wire.ndjson.gz
gen --dialect dicechess-com --games 200 --seed dc-csv --format csv --out $S/dicechess-com/games.csv.gz

# beturanga: classic and Chess960 starts
gen --dialect beturanga --games 200 --seed bet-native --format ndjson --out $S/beturanga/games.ndjson.gz
gen --dialect beturanga --games 200 --seed bet-csv --format csv --out $S/beturanga/games.csv.gz
# beturanga's own server documents (history of FEN entries, timeleft): timed games for flag falls
gen --dialect beturanga --set 'clock.controls=["180+3","60+0"]' --games 60 --seed bet-server --format beturanga --timeout-rate 0.2 --resign-rate 0.2 --out $S/beturanga/games.server.ndjson.gz

# BrainKing (one die, movable types only) and the Wikipedia two-dice rules
gen --dialect brainking-one-die --games 200 --seed bk-native --format ndjson --out $S/brainking-one-die/games.ndjson.gz
gen --dialect brainking-one-die --games 200 --seed bk-csv --format csv --out $S/brainking-one-die/games.csv.gz
gen --dialect wikipedia-two-dice --games 200 --seed wiki-wire --format ingest-wire --out $S/wikipedia-two-dice/games.ingest-wire.ndjson.gz

# chess (control): canonical NDJSON and an opening book
gen --dialect chess --games 200 --seed chess-native --format ndjson --out $S/chess/games.ndjson.gz
gen --dialect chess --games 200 --seed chess-book --format opening-book --out $S/chess/book.tsv

# Planted divergences with answer keys (replay under the named dialect, then `score`)
gen --dialect reference --games 300 --seed planted-ref --format history --out $S/planted/reference.history.ndjson.gz \
  --key $K/reference.history.key.json \
  --inject maximum.fewer-dice:0.08 --inject en-passant.window:0.05 --inject castling.needs-king-and-rook-dice:0.05 \
  --inject end.move-after-king-capture:0.05 --inject dice.not-derived-from-seeds:0.05 --inject dice.commit-mismatch:0.02 \
  --inject end.result-mismatch:0.05 --inject pass.not-allowed:0.03 --inject dice.piece-not-rolled:0.03 --inject move.not-pseudo-legal:0.03
gen --dialect dicechess-com --games 200 --seed planted-dc --format dicechess-com --out $S/planted/dicechess-com.state-maps.ndjson.gz \
  --key $K/dicechess-com.state-maps.key.json \
  --inject dice.allowed-flag:0.08 --inject maximum.fewer-dice:0.08 --inject castling.needs-king-and-rook-dice:0.05 \
  --inject end.move-after-king-capture:0.05 --inject en-passant.window:0.05 --inject pass.not-allowed:0.03

du -sh "$S" "$K"
exit $status

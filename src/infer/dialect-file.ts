import { readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import type { Dialect } from '../dialects/index.js';
import { parseOverride } from '../dialects/index.js';
import type { InferDocument } from './document.js';
import { valueText } from './options.js';

const MARK = 'Inferred by dice-dialects infer';

/** Is this regular file a dialect file an earlier infer wrote (the only kind `--write` replaces)? */
export function isInferredDialectFile(file: string): boolean {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { description?: unknown };
    return typeof data.description === 'string' && data.description.startsWith(MARK);
  } catch {
    return false; // not JSON: not ours
  }
}

/** What `--write` may replace, for the shared output check. */
export const INFERRED_DIALECT_FILE = { test: isInferredDialectFile, what: 'a dialect file written by infer' };

/** A dialect name from the file name (lower case, digits, "-", "."), as the registry expects. */
function nameOf(file: string): string {
  const n = basename(file, '.json').toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[^a-z0-9]+/, '');
  return n === '' ? 'inferred' : n;
}

function setLeaf(tree: Record<string, unknown>, path: string, leaf: unknown): void {
  const parts = path.split('.');
  let cur = tree;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
  cur[parts[parts.length - 1]] = leaf;
}

/**
 * The inferred dialect: `extends` the base and sets each inferred value that differs from
 * it (source "inferred", a note naming the corpus hash, the counts and a decisive game),
 * plus the options the user fixed with --set, so that replaying the corpus under it gives
 * the confirmation count. Written even when nothing differs.
 */
export function inferredDialect(file: string, base: Dialect, baseArg: string, doc: InferDocument, favoured = false): string {
  const shipped = baseArg === base.name || base.aliases.includes(baseArg);
  const parent = shipped ? base.name : relative(dirname(resolve(file)), base.file).replace(/\\/g, '/');
  const out: Record<string, unknown> = {
    name: nameOf(file),
    title: `${base.title}, as inferred from a corpus`,
    description: `${MARK} from ${doc.games} games (corpus sha256 ${doc.corpus.sha256}) against the base dialect ${base.name}; confirmation: ${doc.confirmation.conforming ?? 'not judged'} conforming games, ${doc.confirmation.baseConforming} under the base.`,
    extends: parent,
  };
  for (const text of doc.set) {
    const o = parseOverride(text);
    if (o.ok) setLeaf(out, o.value.path, { value: o.value.value, source: 'assumed', note: `fixed with --set ${text} when inferring` });
  }
  for (const o of doc.options) {
    if (favoured && o.inferred === null && o.favoured.length === 1 && valueText(o.favoured[0]) !== valueText(o.baseValue)) {
      const against = o.evidence.map((e) => `${valueText(e.value)} disfavoured against ${valueText(e.rival)}: ${e.opportunities} unused opportunities, log10 LR ${e.log10LR} (${e.log10LRPerGame} ${e.basis === 'dice-model' ? "counting each game's strongest roll" : 'at most one per game'})${e.example ? `, e.g. game ${e.example.id} turn ${e.example.turn}` : ''}`);
      setLeaf(out, o.path, {
        value: o.favoured[0],
        source: 'inferred',
        note: `favoured by evidence by absence (not decided by any game; not in the confirmation pass) in the corpus with sha256 ${doc.corpus.sha256}, ${o.evidenceBasis === 'dice-model' ? 'from the dice model\'s own chances (no take rate)' : `at an assumed take rate of ${doc.takeRate}`}: ${against.join('; ')}`,
      });
      continue;
    }
    if (o.verdict !== 'contradicted') continue;
    const v = o.values.find((x) => valueText(x.value) === valueText(o.inferred))!;
    const base_ = o.values.find((x) => valueText(x.value) === valueText(o.baseValue));
    const game = v.decisiveGames[0]?.id ?? '(none)';
    setLeaf(out, o.path, {
      value: o.inferred,
      source: 'inferred',
      note: `inferred from the corpus with sha256 ${doc.corpus.sha256}: ${v.conforming} of ${doc.games} games conform under ${valueText(o.inferred)} (${base_?.conforming ?? 0} under the base value ${valueText(o.baseValue)}), ${v.decisive} decisive, e.g. game ${game}${o.mixed ? '; the corpus is mixed: other values have decisive games too' : ''}`,
    });
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

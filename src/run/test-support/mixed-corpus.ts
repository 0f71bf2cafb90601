import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { packageRoot } from '../../dialects/index.js';

const sample = (path: string): string[] => {
  const bytes = readFileSync(join(packageRoot(), 'corpora/samples', path));
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').split('\n').filter(Boolean);
};

/**
 * A corpus with what a real night has: several formats (native NDJSON, ingest-wire, CSV,
 * an opening book), gzip and plain, a folder of many small files, one file much larger
 * than the rest (so a plan stripes it), unreadable records (bad JSON, a truncated gzip)
 * and a source that does not exist. Returns the sources to name on the command line.
 */
export function writeMixedCorpus(dir: string): string[] {
  const native = sample('reference/games.ndjson.gz');
  const wire = sample('reference/games.ingest-wire.ndjson.gz');
  const many = join(dir, 'many');
  mkdirSync(many, { recursive: true });
  for (let f = 0; f < 40; f++) {
    const name = join(many, `part-${String(f).padStart(3, '0')}`);
    const lines = (f % 3 === 2 ? wire : native).slice((f * 5) % 200, ((f * 5) % 200) + 4 + (f % 4));
    if (f === 7) lines.splice(2, 0, '{"this is": not json');
    if (f % 2) writeFileSync(`${name}.ndjson.gz`, gzipSync(`${lines.join('\n')}\n`));
    else writeFileSync(`${name}.ndjson`, `${lines.join('\n')}\n`);
  }
  const truncated = gzipSync(`${native.slice(0, 30).join('\n')}\n`);
  writeFileSync(join(many, 'part-900-truncated.ndjson.gz'), truncated.subarray(0, Math.floor(truncated.length / 2)));
  writeFileSync(join(dir, 'big.ndjson'), `${[...native, ...sample('beturanga/games.ndjson.gz'), ...native.slice(0, 60)].join('\n')}\n`);
  const csv = sample('dicechess-com/games.csv.gz');
  writeFileSync(join(dir, 'games.csv.gz'), gzipSync(`${csv.slice(0, 400).join('\n')}\n`));
  writeFileSync(join(dir, 'book.tsv'), `${sample('chess/book.tsv').slice(0, 120).join('\n')}\n`);
  return [many, join(dir, 'big.ndjson'), join(dir, 'games.csv.gz'), join(dir, 'book.tsv'), join(dir, 'no-such-file.ndjson')];
}

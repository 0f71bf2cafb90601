import type { FormatName } from '../model/game-record.js';
import { beturangaFormat } from './beturanga/index.js';
import { csvFormat } from './csv.js';
import { dicechessComFormat } from './dicechess-com/index.js';
import type { FormatModule } from './format.js';
import { historyFormat } from './history.js';
import { ingestWireFormat } from './ingest-wire.js';
import { ndjsonFormat } from './ndjson.js';
import { openingBookFormat } from './opening-book.js';

/** Every format by its `--format` / `--to` name. */
export const FORMATS: Record<FormatName, FormatModule> = {
  'dicechess-com': dicechessComFormat,
  'ingest-wire': ingestWireFormat,
  history: historyFormat,
  csv: csvFormat,
  'opening-book': openingBookFormat,
  ndjson: ndjsonFormat,
  beturanga: beturangaFormat,
};

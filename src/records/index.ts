/**
 * Records: bytes → GameRecord. Readers for every format of docs/formats.md, writers for
 * the same, and the canonical record schema. Readers know notation, never rules.
 */
export * from './model/game-record.js';
export type { RawRecords, ReadItem, SourceNote, UnreadableCode } from './items.js';
export { recordsIn, UNREADABLE_CODES } from './items.js';
export { readRecords, ReadSetupError, type ReadOptions } from './read.js';
export { parseRawRecords } from './raw-records.js';
export { writeRecords, makeRecordText } from './write.js';
export { detectFormat } from './detect.js';
export { loadHistoryList, makeHistoryRow, writeHistoryList, type HistoryIndex } from './formats/dicechess-com/index.js';
export { recordJsonSchema } from './model/json-schema.js';
export { beturangaJsonSchema } from './formats/beturanga/schema.js';
export type { HttpOptions } from './input/http.js';
export { withFenAfter } from './replay-fens.js';
export type { StreamInput } from './input/text-source.js';

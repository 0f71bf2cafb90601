import type { BatchItem } from './batch.js';

/**
 * A batch of the run pipeline (pipeline.ts) is handed to a thread when its records reach
 * BATCH_BYTES (or BATCH_ITEMS items): memory stays flat whatever the records' size. A batch is
 * judged whole by one thread, so an input of one batch has no work for a second (auto-jobs.ts).
 */
export const BATCH_BYTES = 512 * 1024;
export const BATCH_ITEMS = 512;

/** What an item counts toward a batch's size: a raw item's bytes; a decoded record or an entry about a source, a kilobyte. */
export const itemBytes = (item: BatchItem): number => (item.kind === 'raw' ? item.bytes.byteLength : 1024);

import { INVALID_UTF8_NOTE } from '../records/input/utf8.js';
import type { FaultEntry } from '../report/summary-schema.js';
import { isNormalisedFault, RECORDING_FAULTS, type RecordingFaultId } from '../rules/rule-ids.js';

/**
 * How the summary counts a reader's note on a record (`recordingFaults`), or null for a note
 * it does not count: a repaired fault or a site convention (RECORDING_FAULTS), or text read
 * with U+FFFD for bytes that are not UTF-8. Never a divergence.
 */
export function countedNote(note: string): FaultEntry['handling'] | null {
  if (note === INVALID_UTF8_NOTE) return 'replaced';
  if (!isNormalisedFault(note)) return null;
  return RECORDING_FAULTS[note as RecordingFaultId] === 'metadata' ? 'metadata' : 'normalised';
}

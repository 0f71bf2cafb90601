import type { GameResultLine } from '../replay/result.js';
import { foldedMessage, UnreadableRepeats } from './unreadable-repeats.js';

/**
 * Folding of repeated unreadable result lines as the run writes them (the summary still
 * counts each): the same decisions whether lines stream from the judges (a run) or from
 * shards' results in the run's order (a merge), so both write the same bytes.
 */
export class ResultFolding {
  private readonly repeats = new UnreadableRepeats<GameResultLine>();

  /** True when this unreadable line is written in full; false when it is folded. */
  admit(line: GameResultLine): boolean {
    const f = line.findings[0];
    return this.repeats.admit(`${line.source}\u0000${line.dialect}\u0000${f.rule}\u0000${f.message}`, line, line.index, f.location);
  }

  /** One summarising line per kind of folded entry, written after the others (its `index` says where the run of them began). */
  closingText(): string {
    let text = '';
    let k = 0;
    for (const f of this.repeats.folded()) {
      const s = f.sample;
      const finding = s.findings[0];
      const line: GameResultLine = {
        id: `${s.source ?? finding.location ?? 'input'}#repeated-${++k}`,
        dialect: s.dialect,
        status: 'unreadable',
        index: f.firstIndex,
        source: s.source,
        turns: null,
        findings: [{ ...finding, message: foldedMessage(f, finding.rule, finding.message), location: f.location }],
        repeats: f.count,
      };
      text += `${JSON.stringify(line)}\n`;
    }
    return text;
  }
}

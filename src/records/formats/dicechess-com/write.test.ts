import { describe, expect, it } from 'vitest';
import { finaliseRecord } from '../../model/finalise.js';
import type { GameRecord, GameRecordInput } from '../../model/game-record.js';
import { makeStateMap } from './write.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

function record(over: Partial<GameRecordInput> = {}): GameRecord {
  return finaliseRecord(
    {
      id: 'game-1',
      format: 'dicechess-com',
      startFen: START,
      players: { white: { id: 'alice' }, black: { id: 'bob' } },
      turns: [
        { side: 'w', dice: [1, 2, 3], moves: ['e2e4', 'b1c3', 'f1c4'] },
        { side: 'b', dice: [6, 1, 2], moves: ['e7e5', 'g8f6'] },
      ],
      result: null,
      ...over,
    },
    new Set(),
  );
}

type Step = { fen: string; dices: Array<{ value: string; allowed: boolean; used: boolean }>; gameMoveHistoryMove: { from: string; to: string; promotion: string } | null; leftTime: Record<string, number>; bank?: number };
const stepsOf = (r: GameRecord): Step[] => {
  const doc = makeStateMap(r) as { gameId: string; gameMoveHistoryStateMap: Record<string, Step> };
  expect(doc.gameId).toBe(r.id);
  const keys = Object.keys(doc.gameMoveHistoryStateMap);
  keys.forEach((k, i) => expect(k).toBe(String(i))); // no gaps without a declined draw offer
  return keys.map((k) => doc.gameMoveHistoryStateMap[k]);
};

describe('dicechess.com state map writer (docs/formats.md, State maps)', () => {
  it('writes a dice-less first step, a roll step per turn, and per micro-move a move step then a highlight reset', () => {
    const steps = stepsOf(record());
    // 1 start + (1 roll + 3×2) + (1 roll + 2×2)
    expect(steps).toHaveLength(1 + 7 + 5);
    expect(steps[0]).toMatchObject({ fen: START, dices: [], gameMoveHistoryMove: null });
    expect(steps[1].dices.map((d) => d.value)).toEqual(['P', 'N', 'B']);
    expect(steps[1].dices.every((d) => d.allowed && !d.used)).toBe(true);
    expect(steps[1].gameMoveHistoryMove).toBeNull();
    expect(steps[2].gameMoveHistoryMove).toEqual({ from: 'E2', to: 'E4', promotion: 'NONE' });
    expect(steps[2].dices.map((d) => d.used)).toEqual([true, false, false]);
    expect(steps[2].fen.split(' ')[0]).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR');
    expect(steps[3]).toMatchObject({ fen: steps[2].fen, gameMoveHistoryMove: null });
    expect(steps[7].dices.map((d) => d.used)).toEqual([true, true, true]);
    // Black's roll: lower-case letters in roll order, Black to move; the king die cannot be spent.
    expect(steps[8].fen.split(' ')[1]).toBe('b');
    expect(steps[8].dices).toEqual([
      { value: 'k', allowed: false, used: false },
      { value: 'p', allowed: true, used: false },
      { value: 'n', allowed: true, used: false },
    ]);
    expect(steps[11].gameMoveHistoryMove).toEqual({ from: 'G8', to: 'F6', promotion: 'NONE' });
  });

  it('names promotions by colour and piece', () => {
    const r = record({ startFen: '7k/4P3/8/8/8/8/8/K7 w - - 0 1', turns: [{ side: 'w', dice: [1], moves: ['e7e8n'] }] });
    expect(stepsOf(r)[2].gameMoveHistoryMove).toEqual({ from: 'E7', to: 'E8', promotion: 'WHITE_KNIGHT' });
  });

  it('keys clocks by player id, and writes a flag fall as one more step with the loser at 0', () => {
    const r = record({
      timeControl: { kind: 'fischer', initialMs: 180000, incrementMs: 2000 },
      turns: [{ side: 'w', dice: [1, 2, 3], moves: ['e2e4'], clockMs: { w: 170000, b: 180000 } }],
      result: 'white',
      termination: 'timeout',
    });
    const steps = stepsOf(r);
    expect(steps[0].leftTime).toEqual({ alice: 180000, bob: 180000 });
    expect(steps[1].leftTime).toEqual({ alice: 170000, bob: 180000 });
    expect(steps.at(-1)!.leftTime).toEqual({ alice: 170000, bob: 0 });
  });

  it('writes a declined draw offer as a gap in the step numbers', () => {
    const r = record({ events: [{ type: 'DRAW_OFFER', turn: 2, actor: 'w' }, { type: 'DRAW_DECLINE', turn: 2, actor: 'b' }] });
    const map = (makeStateMap(r) as { gameMoveHistoryStateMap: Record<string, unknown> }).gameMoveHistoryStateMap;
    const numbers = Object.keys(map).map(Number);
    expect(numbers.some((n, i) => i > 0 && n - numbers[i - 1] > 1)).toBe(true);
    expect(numbers).toHaveLength(13);
  });
});

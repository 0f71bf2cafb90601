import { z } from 'zod';
import type * as T from './game-record.js';
import { recordSchemas } from './game-record.js';

/** The game record's zod schemas, built with the zod this module imports; each beside its type (game-record.ts's). */
const schemas = recordSchemas(() => z);
export const { Side, Player, TimeControl, DieFlags, Turn, GameEvent, Fairness, GameRecord } = schemas;
export type Side = T.Side;
export type Player = T.Player;
export type TimeControl = T.TimeControl;
export type Turn = T.Turn;
export type GameEvent = T.GameEvent;
export type Fairness = T.Fairness;
export type GameRecord = T.GameRecord;
export type GameRecordInput = T.GameRecordInput;

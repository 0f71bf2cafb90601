export { Prng, makePrng, hashSeed, type Seed } from './prng.js';
export {
  commitOf,
  rollFair,
  fairMessage,
  verifyRolls,
  makeReveal,
  makeServerSeed,
  makeClientSeed,
  isHex,
  FairDice,
  type FairnessReveal,
  type FairnessVerdict,
  type FairnessProblemCode,
  type VerifyOptions,
} from './fairness.js';
export { FACES, rollDie, rollD6, rollMovableFace, makeRoller, type DrawMethod, type Roller, type RollerOptions } from './roll.js';
export { chiSquareStatistic, chiSquareSurvival } from './chi-square.js';

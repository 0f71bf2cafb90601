/**
 * Planted divergences. A planter edits a legal game at a chosen turn so that the FIRST
 * finding the replayer reports is exactly the keyed (turn, micro-move, rule). Every
 * candidate is checked by writing it in the target format, reading it back with the
 * records reader and replaying it with the real replayer: the answer key is right by
 * construction. When a game offers no candidate that checks out, the caller re-picks.
 */
export type { GameUnit, InjectSpec, Plant, PlantContext } from './planter.js';
export { PLANTERS } from './planters.js';
export { chooseInjection, injectProblem, parseInject } from './spec.js';
export { plant } from './plant.js';

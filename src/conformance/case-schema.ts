import { z } from 'zod';
import { lazily } from '../lazily.js';
import { isRuleId } from '../rules/index.js';

const Outcome = lazily(() =>
  z.union([
    z.literal('playing'),
    z.object({ result: z.enum(['white', 'black', 'draw']), reason: z.string() }).strict(),
  ]),
);

const Verdict = lazily(() =>
  z.union([
    z.literal('legal'),
    z.object({ rule: z.string(), microMove: z.number().int().min(0).nullable() }).strict(),
  ]),
);

/** What one dialect (optionally with option overrides) must answer for a case. */
export const Expectation = lazily(() =>
  z
    .object({
      firstMicroMoves: z.array(z.string()).optional(),
      /** Legal full turns, compared as a set; [] inside = forced pass. */
      turns: z.array(z.array(z.string())).optional(),
      turnCount: z.number().int().min(0).optional(),
      verdict: Verdict.optional(),
      outcome: Outcome.optional(),
      /** game: the draw the player to move may claim after the last turn (`draws.ruleDraws: "claim"`), null for none. */
      claim: z.enum(['repetition', 'move-counter']).nullable().optional(),
      nodes: z.number().int().min(0).optional(),
      passes: z.number().int().min(0).optional(),
      /** What a site's per-die `allowed` flags should say for the DFEN's roll, in roll order. */
      allowedFlags: z.array(z.boolean()).optional(),
      /** A known divergence: the case is expected NOT to match; matching anyway is reported as an unexpected pass. */
      knownFailure: z.string().optional(),
    })
    .strict(),
);
export type Expectation = z.infer<typeof Expectation>;

export const ConformanceCase = lazily(() =>
  z
    .object({
      id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
      /** Rule ids from the registry that the case exercises (like test262 features). */
      rules: z.array(z.string()).min(1),
      description: z.string(),
      /** Where the facts come from: a docs/rules.md section (`docs/rules.md §2.3`), a public URL or vector set, or "own". */
      source: z.string(),
      kind: z.enum(['position', 'game', 'die-perft', 'roll-census']).default('position'),
      dfen: z.string(),
      /** position: a recorded turn to judge. */
      turn: z.array(z.string()).optional(),
      /** game: turns played in order from `dfen`, each with its dice letters ("-" for none). */
      turns: z.array(z.object({ dice: z.string(), moves: z.array(z.string()) }).strict()).optional(),
      /** die-perft: the fixed die face and depth. */
      die: z.number().int().min(1).max(6).optional(),
      depth: z.number().int().min(1).max(6).optional(),
      /** Keys: a dialect name, or `name+path=value+path=value` for a dialect with option overrides. */
      expect: z.record(z.string(), Expectation),
    })
    .strict()
    .superRefine((c, ctx) => {
      for (const [i, id] of c.rules.entries()) {
        if (!isRuleId(id)) ctx.addIssue({ code: 'custom', path: ['rules', i], message: `unknown rule id "${id}"` });
      }
      for (const [key, e] of Object.entries(c.expect)) {
        if (e.verdict && typeof e.verdict === 'object' && !isRuleId(e.verdict.rule)) {
          ctx.addIssue({ code: 'custom', path: ['expect', key, 'verdict', 'rule'], message: `unknown rule id "${e.verdict.rule}"` });
        }
      }
      if (c.kind === 'game' && !c.turns) ctx.addIssue({ code: 'custom', path: ['turns'], message: 'a game case needs turns' });
      if (c.kind === 'die-perft' && (c.die === undefined || c.depth === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['die'], message: 'a die-perft case needs die and depth' });
      }
    }),
);
export type ConformanceCase = z.infer<typeof ConformanceCase>;

export const CaseFile = lazily(() => z.object({ about: z.string(), cases: z.array(ConformanceCase) }).strict());

import { HistoryError } from '../errors.js';

/**
 * The search language (docs/history.md has the grammar):
 *   query := term ( ( " " | " AND " ) term )*
 *   term  := key ":" value | "changed"
 *   key   := dialect | rule | status | game | source | since | until
 *   value := a word without spaces, or "a quoted string" (\" and \\ inside); * matches any text
 * Terms are joined by AND (written or not). A key may appear more than once (both must hold).
 */
export const SEARCH_KEYS = ['dialect', 'rule', 'status', 'game', 'source', 'since', 'until'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];
export const STATUSES = ['conforming', 'diverging', 'unreadable'] as const;

export type SearchTerm = { key: SearchKey; value: string; at: number } | { key: 'changed'; at: number };

function syntaxError(query: string, at: number, what: string): HistoryError {
  const shown = query.length > 120 ? `${query.slice(0, 120)}…` : query;
  return new HistoryError('history-query-syntax', `search: ${what} at column ${at + 1}: ${shown.slice(0, at)}▸${shown.slice(at)}`);
}

/** The terms of a query, or a syntax error that names the column and marks it (▸). */
export function parseSearch(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let i = 0;
  const n = query.length;
  const space = () => {
    while (i < n && /\s/.test(query[i])) i++;
  };
  space();
  if (i >= n) throw syntaxError(query, 0, 'empty query (try dialect:NAME or status:diverging)');
  let expectTerm = true;
  while (i < n) {
    const at = i;
    const word = /^[A-Za-z_]+/.exec(query.slice(i))?.[0] ?? '';
    if (word === 'AND' && !expectTerm && /^(\s|$)/.test(query.slice(i + 3))) {
      i += 3;
      space();
      if (i >= n) throw syntaxError(query, at, 'AND with no term after it');
      expectTerm = true;
      continue;
    }
    if (word === 'changed' && /^(\s|$)/.test(query.slice(i + 7))) {
      terms.push({ key: 'changed', at });
      i += 7;
    } else {
      if (word === '' ) throw syntaxError(query, at, `expected a term (${SEARCH_KEYS.map((k) => `${k}:`).join(', ')} or changed)`);
      if (query[i + word.length] !== ':') throw syntaxError(query, at, word === 'OR' || word === 'NOT' ? `${word} is not part of the language (terms are joined by AND)` : `"${word}" is not a term (${SEARCH_KEYS.map((k) => `${k}:`).join(', ')} or changed)`);
      if (!(SEARCH_KEYS as readonly string[]).includes(word)) throw syntaxError(query, at, `unknown key "${word}:" (keys: ${SEARCH_KEYS.join(', ')})`);
      i += word.length + 1;
      const valueAt = i;
      let value = '';
      if (query[i] === '"') {
        i++;
        let closed = false;
        while (i < n) {
          const c = query[i];
          if (c === '\\' && i + 1 < n) {
            value += query[i + 1];
            i += 2;
          } else if (c === '"') {
            i++;
            closed = true;
            break;
          } else {
            value += c;
            i++;
          }
        }
        if (!closed) throw syntaxError(query, valueAt, 'unclosed quote');
      } else {
        while (i < n && !/\s/.test(query[i])) value += query[i++];
      }
      if (value === '') throw syntaxError(query, valueAt, `${word}: needs a value`);
      if (word === 'status' && !(STATUSES as readonly string[]).includes(value)) throw syntaxError(query, valueAt, `status must be ${STATUSES.join(', ')}`);
      terms.push({ key: word as SearchKey, value, at });
    }
    if (i < n && !/\s/.test(query[i])) throw syntaxError(query, i, 'expected a space between terms');
    space();
    expectTerm = false;
  }
  return terms;
}

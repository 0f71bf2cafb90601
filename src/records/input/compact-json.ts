/**
 * A JSON reader for compact documents whose parts repeat their neighbours: a dicechess.com
 * state map is hundreds of steps, each mostly the step before it (the same FEN, dice,
 * clocks) with one field changed, and JSON.parse spends most of a game's decoding on it.
 *
 * `parseCompactJson(text)` gives exactly what `JSON.parse(text)` gives (equal values, the
 * same keys in the same order) or `undefined` when the text is outside what it reads; the
 * caller then uses JSON.parse. It reads JSON written without whitespace, strings without
 * escapes or control characters, and no `__proto__` key (whose meaning differs between
 * JSON.parse and assignment). Where a property's value has the same text as the same key's
 * value in the previous sibling object, it is not read again: it is that value, shared, so
 * callers must not change what they get. Equality with JSON.parse is held by a property test.
 */

/** How one object was read: per property, its key, the key's text (`"k":`), its value's text, the value, and the value's own shape. */
interface Shape {
  keys: string[];
  keyTexts: string[];
  raws: string[];
  values: unknown[];
  shapes: Array<Shape | null>;
}

const NOT_COMPACT = new Error('not compact JSON');

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

export function parseCompactJson(text: string): unknown {
  const n = text.length;
  let p = 0;
  /** The shape of the object value read last (null when the last value was not an object). */
  let lastShape: Shape | null = null;

  const value = (template: Shape | null): unknown => {
    const c = text.charCodeAt(p);
    lastShape = null;
    if (c === OPEN_BRACE) return object(template);
    if (c === OPEN_BRACKET) return array();
    if (c === QUOTE) return string();
    if (c === 116) return literal('true', true);
    if (c === 102) return literal('false', false);
    if (c === 110) return literal('null', null);
    return number();
  };

  const literal = <T>(word: string, v: T): T => {
    if (!text.startsWith(word, p)) throw NOT_COMPACT;
    p += word.length;
    return v;
  };

  const string = (): string => {
    const start = p + 1;
    const end = text.indexOf('"', start);
    if (end < 0) throw NOT_COMPACT;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 32 || c === BACKSLASH) throw NOT_COMPACT;
    }
    p = end + 1;
    return text.slice(start, end);
  };

  const digits = (): number => {
    const start = p;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c < 48 || c > 57) break;
      p++;
    }
    return p - start;
  };

  // JSON's number grammar, checked here; the value is then the same double JSON.parse reads.
  const number = (): number => {
    const start = p;
    if (text.charCodeAt(p) === 45) p++;
    const first = text.charCodeAt(p);
    const whole = digits();
    if (whole === 0 || (first === 48 && whole > 1)) throw NOT_COMPACT;
    if (text.charCodeAt(p) === 46) {
      p++;
      if (digits() === 0) throw NOT_COMPACT;
    }
    const e = text.charCodeAt(p);
    if (e === 101 || e === 69) {
      p++;
      const sign = text.charCodeAt(p);
      if (sign === 43 || sign === 45) p++;
      if (digits() === 0) throw NOT_COMPACT;
    }
    return Number(text.slice(start, p));
  };

  const array = (): unknown[] => {
    p++;
    const out: unknown[] = [];
    if (text.charCodeAt(p) === CLOSE_BRACKET) {
      p++;
      return out;
    }
    // Each element object is read with the one before it as its template (the dice of a roll).
    let sibling: Shape | null = null;
    for (;;) {
      out.push(value(sibling));
      sibling = lastShape;
      const c = text.charCodeAt(p++);
      if (c === COMMA) continue;
      if (c === CLOSE_BRACKET) break;
      throw NOT_COMPACT;
    }
    lastShape = null;
    return out;
  };

  /** An object, read with `template` (the previous sibling's shape, or null) for its keys and repeated values. */
  const object = (template: Shape | null): Record<string, unknown> => {
    p++;
    const obj: Record<string, unknown> = {};
    const shape: Shape = { keys: [], keyTexts: [], raws: [], values: [], shapes: [] };
    if (text.charCodeAt(p) === CLOSE_BRACE) {
      p++;
      lastShape = shape;
      return obj;
    }
    let sibling: Shape | null = null;
    for (let i = 0; ; i++) {
      const same = template !== null && i < template.keys.length && text.startsWith(template.keyTexts[i], p);
      let key: string;
      if (same) {
        key = template.keys[i];
        shape.keyTexts.push(template.keyTexts[i]);
        p += template.keyTexts[i].length;
      } else {
        const start = p;
        if (text.charCodeAt(p) !== QUOTE) throw NOT_COMPACT;
        key = string();
        if (text.charCodeAt(p) !== COLON || key === '__proto__') throw NOT_COMPACT;
        p++;
        shape.keyTexts.push(text.slice(start, p));
      }
      const start = p;
      let v: unknown;
      let vShape: Shape | null;
      const raw = same ? template.raws[i] : null;
      const end = raw === null ? -1 : p + raw.length;
      const next = end < 0 ? -1 : text.charCodeAt(end);
      if (raw !== null && (next === COMMA || next === CLOSE_BRACE) && text.startsWith(raw, p)) {
        v = template!.values[i];
        vShape = template!.shapes[i];
        p = end;
      } else {
        // A new value: an object is read with the same key's previous value as its template, else with its previous sibling here.
        v = value((same ? template.shapes[i] : null) ?? sibling);
        vShape = lastShape;
      }
      obj[key] = v;
      shape.keys.push(key);
      shape.raws.push(text.slice(start, p));
      shape.values.push(v);
      shape.shapes.push(vShape);
      if (vShape !== null) sibling = vShape;
      const c = text.charCodeAt(p++);
      if (c === COMMA) continue;
      if (c === CLOSE_BRACE) break;
      throw NOT_COMPACT;
    }
    lastShape = shape;
    return obj;
  };

  try {
    const v = value(null);
    return p === n ? v : undefined;
  } catch {
    // Outside the compact form (or nested too deep for this reader): JSON.parse decides.
    return undefined;
  }
}

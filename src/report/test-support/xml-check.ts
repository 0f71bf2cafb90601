/**
 * A small XML well-formedness check for the tests (no XML parser is installed):
 * one root, properly nested tags, quoted attributes, known entities only, no raw
 * `<` or `&` in text. Returns the element names in document order.
 */
export function checkXml(text: string): { elements: string[]; attributes: Array<Record<string, string>> } {
  let s = text.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const elements: string[] = [];
  const attributes: Array<Record<string, string>> = [];
  let rootClosed = false;
  const checkText = (t: string) => {
    if (t.includes('<')) throw new Error(`raw "<" in text: ${t.slice(0, 40)}`);
    for (const m of t.matchAll(/&([^;]*);?/g)) {
      if (!/^(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+)$/.test(m[1]) || !m[0].endsWith(';')) throw new Error(`bad entity ${m[0]}`);
    }
  };
  const decode = (t: string) =>
    t.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e] ?? String.fromCodePoint(Number(e.slice(1))));
  while (s.length) {
    const lt = s.indexOf('<');
    const textPart = lt < 0 ? s : s.slice(0, lt);
    checkText(textPart);
    if (textPart.trim() && stack.length === 0) throw new Error('text outside the root element');
    if (lt < 0) break;
    const gt = s.indexOf('>', lt);
    if (gt < 0) throw new Error('unterminated tag');
    const tag = s.slice(lt + 1, gt);
    s = s.slice(gt + 1);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      if (stack.pop() !== name) throw new Error(`mismatched </${name}>`);
      if (stack.length === 0) rootClosed = true;
      continue;
    }
    const m = /^([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)$/.exec(tag);
    if (!m) throw new Error(`malformed tag <${tag.slice(0, 60)}>`);
    if (rootClosed) throw new Error('second root element');
    const attrs: Record<string, string> = {};
    for (const a of m[2].matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      checkText(a[2]);
      if (a[1] in attrs) throw new Error(`duplicate attribute ${a[1]}`);
      attrs[a[1]] = decode(a[2]);
    }
    elements.push(m[1]);
    attributes.push(attrs);
    if (m[3] !== '/') stack.push(m[1]);
    else if (stack.length === 0) rootClosed = true;
  }
  if (stack.length) throw new Error(`unclosed <${stack.at(-1)}>`);
  if (!rootClosed) throw new Error('no root element');
  return { elements, attributes };
}

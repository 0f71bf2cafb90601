/** The character codes the byte-level readers and scanners look for (ASCII), declared once. */
export const NL = 10;
export const CR = 13;
export const QUOTE = 34;
/** A comment line's first byte (opening books). */
export const HASH = 35;
export const COMMA = 44;
export const OPEN_BRACKET = 91;
export const BACKSLASH = 92;
export const CLOSE_BRACKET = 93;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;

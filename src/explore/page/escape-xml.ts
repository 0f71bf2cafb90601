/** XML and HTML text escaping, for the reports and the explorer page alike (the page bundle imports no report module). */

/** Characters XML 1.0 cannot carry at all (even escaped): C0 controls but tab/LF/CR, lone surrogates, U+FFFE/FFFF. */
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for HTML/SVG/XML content or attribute values (quotes included, so it is safe in both). */
export function escapeXml(text: string): string {
  return text.replace(XML_INVALID, '\uFFFD').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `JSON.parse` of a file's or a body's text, with a leading UTF-8 byte order mark read as what it is: not
 * part of the JSON (RFC 8259 §8.1 lets a parser ignore it; Windows Notepad writes one). Every reader of a
 * JSON file a person may have edited or saved elsewhere goes through here.
 */
export function parseJsonText(text: string): unknown {
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
}

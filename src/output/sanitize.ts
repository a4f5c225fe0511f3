// ANSI/VT sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), and other two-byte ESC forms.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]/g;
const LINE_BREAKS = /[\t\n\r\v\f]+/g;
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Service data is untrusted: nothing in it may move the cursor, retitle the terminal or reorder text. */
export function stripControl(text: string): string {
  return text.replace(ESCAPES, '').replace(LINE_BREAKS, ' ').replace(CONTROLS, '');
}

const INVISIBLE = /[\u200b-\u200f\u2060-\u2064\ufeff]/g;

/** stripControl, and zero-width characters too: text an assistant reads must read as it will be shown. */
export function stripInvisible(text: string): string {
  return stripControl(text).replace(INVISIBLE, '');
}

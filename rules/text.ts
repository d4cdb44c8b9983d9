// What free text may hold. Names, the motivation and staff notes end up in the staff
// screens, the CSV export, WhatsApp templates and the webhook: a NUL or another control
// character breaks some of them, a lone surrogate cannot be encoded as UTF-8 (DynamoDB and
// the CSV would get U+FFFD, or an error), and a bidirectional override makes a name show
// as something else than it is ("Trojan Source", CVE-2021-42574). Tamil text needs none of
// them: the zero-width joiner and non-joiner (U+200C, U+200D) are ordinary characters here.

/* eslint-disable no-control-regex -- finding control characters is the point of these two */
/** C0 controls but tab, line feed and carriage return; DEL; the C1 range. */
const controlsExceptLineBreaks = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
/** Any C0 control, DEL, the C1 range: for one-line fields. */
const anyControl = /[\u0000-\u001F\u007F-\u009F]/u;
/* eslint-enable no-control-regex */
/** Embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069). */
const bidiControls = /[\u202A-\u202E\u2066-\u2069]/u;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The field code for text that holds a character it may not; undefined when it is clean. */
export function textProblem(value: string, { multiline = false } = {}): 'INVALID_CHARACTERS' | undefined {
  const controls = multiline ? controlsExceptLineBreaks : anyControl;
  return controls.test(value) || bidiControls.test(value) || loneSurrogate.test(value)
    ? 'INVALID_CHARACTERS'
    : undefined;
}

/** For zod's refine: true when the text holds nothing it may not. */
export const isPlainText = (value: string) => textProblem(value) === undefined;
export const isPlainMultilineText = (value: string) => textProblem(value, { multiline: true }) === undefined;

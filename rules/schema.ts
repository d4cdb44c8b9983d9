import * as v from 'valibot';

// valibot helpers for the schemas that answer people (request bodies, queries, the
// form). The server's and the staff area's schemas moved from zod to valibot (issue 16:
// zod's classic API cost every function ~12 ms at import and the /admin chunk ~24 KB).
// The field codes a visitor or the SPA sees were made by zod's rules; where valibot's
// differ, these keep zod's:
// - a missing key reports its field's own message (REQUIRED), not the object's;
// - cross-field checks run unless a field failed its type (a failed length or pattern
//   check does not stop them);
// - a union that fails reports the one branch that matched the shape, else one issue.

/** A field path as zod printed it ('filters.to', 'ids.0'); '' at the root. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return issue.path?.map((item) => String(item.key)).join('.') ?? '';
}

/** The message of a field's own check of a missing value (what zod reported). */
function missingKeyMessage(entries: v.ObjectEntries, issue: v.ObjectIssue): string {
  const key = issue.path?.[0]?.key;
  const field = typeof key === 'string' && Object.hasOwn(entries, key) ? entries[key] : undefined;
  const result = field && v.safeParse(field, undefined);
  return result && !result.success ? (result.issues[0]?.message ?? issue.message) : issue.message;
}

/**
 * An object schema that refuses an array, as zod's did: valibot takes an array for an
 * object, which passes when every key is optional.
 */
export function notArray<const TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.pipe(
    v.custom<v.InferInput<TSchema>>((input) => !Array.isArray(input)),
    schema,
  );
}

/** v.object whose missing keys report their field's own message (e.g. REQUIRED); never an array. */
export function requestObject<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return notArray(v.object(entries, (issue) => missingKeyMessage(entries, issue)));
}

/**
 * v.optional whose pipe still runs on a missing key: `v.pipe(optionalPiped(v.string()),
 * v.transform(...))` turns a missing key into the transform's answer, as zod did.
 */
export function optionalPiped<const TWrapped extends v.GenericSchema>(wrapped: TWrapped) {
  return v.optional(wrapped, () => undefined);
}

/** Reports an issue on one field of the object being checked. */
export type AddFieldIssue = (key: string, message: string) => void;

/**
 * An object's cross-field check. Runs, as zod's refine did, unless a field failed its
 * type (a missing key, a wrong type or choice); a field that failed a length or pattern
 * check still lets it run (its value then stands as received, not transformed).
 */
export function crossCheck<TValue extends object>(
  check: (value: TValue, addIssue: AddFieldIssue) => void,
): v.RawCheckAction<TValue> {
  return v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.issues?.some((issue) => issue.kind === 'schema')) return;
    // No type failed: every field holds its type (a pipe stopped by a failed check keeps its input).
    const value = dataset.value as TValue;
    const input = value as Record<string, unknown>;
    check(value, (key, message) =>
      addIssue({ message, path: [{ type: 'object', origin: 'value', input, key, value: input[key] }] }),
    );
  });
}

type Options = readonly [v.GenericSchema, ...v.GenericSchema[]];

/**
 * A union with zod's failures: the first branch that passes; else, when exactly one
 * branch failed only its checks (not its shape), that branch's issues; else one issue
 * for the whole value.
 */
export function union<const TOptions extends Options>(options: TOptions) {
  return v.pipe(
    v.custom<v.InferInput<TOptions[number]>>(() => true),
    v.rawTransform<v.InferInput<TOptions[number]>, v.InferOutput<TOptions[number]>>(({ dataset, addIssue, NEVER }) => {
      const results = options.map((option) => v.safeParse(option, dataset.value));
      for (const result of results) {
        if (result.success) return result.output;
      }
      const shaped = results.filter((result) => !result.issues?.some((issue) => issue.kind === 'schema'));
      const only = shaped.length === 1 ? shaped[0] : undefined;
      if (only?.issues) for (const issue of only.issues) addIssue({ message: issue.message, path: issue.path });
      else addIssue({ message: 'Invalid input' });
      return NEVER;
    }),
  );
}

// zod 4's formats, kept exactly: what was accepted stays accepted.
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
const ISO_DATE =
  '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))';
const ISO_DATETIME = new RegExp(`^${ISO_DATE}T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z))$`);

export const isEmail = (s: string): boolean => EMAIL.test(s);

/** A UUID as zod's z.uuid() took it; `message` for every failure. */
export const uuid = (message?: string) => v.pipe(v.string(message), v.regex(UUID, message));

/** An ISO date-time in UTC ('…Z'), as zod's z.iso.datetime() took it. */
export const isoDateTime = () => v.pipe(v.string(), v.regex(ISO_DATETIME));

/** A URL as zod's z.url() took it: trimmed, tabs and line breaks removed. */
export const url = () =>
  v.pipe(
    v.string(),
    v.check((s) => URL.canParse(s.trim())),
    v.transform((s) => s.trim().replace(/[\t\n\r]/g, '')),
  );

/** A number from a string (an environment variable), as zod's z.coerce.number(). */
export const coercedNumber = () => v.pipe(v.unknown(), v.transform(Number), v.number(), v.finite());

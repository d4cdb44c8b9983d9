// What every part of `npm run bench` shares: a figure is one measured number with its unit,
// its budget and a reference measured in the same run. A part is a script under
// bench/parts/ that measures and hands its figures to `runPart`, which writes them to
// `.bench/parts/<part>.json` for `bench/run.ts` to gather into `.bench/results.json`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export interface Figure {
  readonly value: number;
  readonly unit: string;
  /** The limit the value must respect, or null for a figure reported without one. */
  readonly budget: number | null;
  /** The same thing measured on a reference in the same run, or null. */
  readonly reference: number | null;
  readonly ok: boolean;
  /** How the budget reads, for the table: "≤ 100", "≥ 95", "= 1000". */
  readonly rule?: string;
}

export type Figures = Record<string, Figure>;

export const benchDir = resolve(import.meta.dirname, '../.bench');
export const partsDir = resolve(benchDir, 'parts');

interface FigureOptions {
  readonly reference?: number | null;
}

/** A figure with no budget: reported for the record (and for the cost table). */
export function report(value: number, unit: string, options: FigureOptions = {}): Figure {
  return { value, unit, budget: null, reference: options.reference ?? null, ok: true };
}

/** A figure that must not exceed its budget. */
export function atMost(value: number, unit: string, budget: number, options: FigureOptions = {}): Figure {
  return { value, unit, budget, reference: options.reference ?? null, ok: value <= budget, rule: `≤ ${budget}` };
}

/** A figure that must reach its budget. */
export function atLeast(value: number, unit: string, budget: number, options: FigureOptions = {}): Figure {
  return { value, unit, budget, reference: options.reference ?? null, ok: value >= budget, rule: `≥ ${budget}` };
}

/** A figure that must equal its budget exactly (counts under load). */
export function exactly(value: number, unit: string, budget: number, options: FigureOptions = {}): Figure {
  return { value, unit, budget, reference: options.reference ?? null, ok: value === budget, rule: `= ${budget}` };
}

/** A figure that must stay below its reference (the budget is the reference). */
export function below(value: number, unit: string, reference: number): Figure {
  return { value, unit, budget: reference, reference, ok: value < reference, rule: `< ${round(reference)}` };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function round(value: number): number {
  if (Number.isInteger(value)) return value;
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
}

const started = Date.now();
/** A progress line on stderr, with the seconds since the part started. */
export function say(line: string): void {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
}

/**
 * Runs a part: `measure` returns its figures (it may add them as it goes through `add`,
 * so a failure late in the part keeps what was measured). Writes them, prints them, and
 * exits 0 when every budget is met, 1 when one is missed, 2 when the part itself failed.
 */
export function runPart(part: string, measure: (add: (name: string, figure: Figure) => void) => Promise<void>): void {
  const figures: Figures = {};
  const add = (name: string, figure: Figure) => {
    figures[name] = { ...figure, value: round(figure.value), reference: figure.reference === null ? null : round(figure.reference) };
    say(`${figure.ok ? 'ok  ' : 'MISS'} ${name}: ${round(figure.value)} ${figure.unit}${figure.rule ? ` (budget ${figure.rule})` : ''}`);
  };
  const write = (failure?: string) => {
    mkdirSync(partsDir, { recursive: true });
    writeFileSync(resolve(partsDir, `${part}.json`), `${JSON.stringify({ part, finishedAt: new Date().toISOString(), failure: failure ?? null, figures }, null, 2)}\n`);
  };
  measure(add).then(
    () => {
      write();
      process.exit(Object.values(figures).every((f) => f.ok) ? 0 : 1);
    },
    (error: Error) => {
      process.stderr.write(`${error.stack ?? error.message}\n`);
      write(error.message);
      process.exit(2);
    },
  );
}

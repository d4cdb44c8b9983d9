// Asia/Kolkata is UTC+05:30 all year (no daylight saving), so plain arithmetic is exact.
// The one definition of the offset: the server, the SPA and the local stack use it.
export const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

export interface CalendarDate {
  readonly year: number;
  readonly month: number; // 1-12
  readonly day: number;
}

/** The calendar day in IST at the given instant. */
export function istDate(at: Date): CalendarDate {
  const shifted = new Date(at.getTime() + IST_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/**
 * An instant (ISO, any offset) as IST with its offset, to the second:
 * '2026-11-20T17:30:00.000Z' -> '2026-11-20T23:00:00+05:30'. Undefined when not a time.
 */
export function istIso(iso: string): string | undefined {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return undefined;
  return `${new Date(at + IST_OFFSET_MS).toISOString().slice(0, 19)}+05:30`;
}

/** 'YYYY-MM-DD' of the IST day at the given instant. */
export function istDay(at: Date): string {
  return formatDate(istDate(at));
}

export function formatDate(d: CalendarDate): string {
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Parses a strict 'YYYY-MM-DD' that names a real calendar day. */
export function parseDate(value: string): CalendarDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    return undefined;
  }
  return { year, month, day };
}

/** First instant of an IST day ('YYYY-MM-DD'), as a Date. */
export function istStartOfDay(day: CalendarDate): Date {
  return new Date(Date.UTC(day.year, day.month - 1, day.day) - IST_OFFSET_MS);
}

/** Last millisecond of an IST day (23:59:59.999 IST). */
export function istEndOfDay(day: CalendarDate): Date {
  return new Date(istStartOfDay(day).getTime() + 24 * 60 * 60 * 1000 - 1);
}

/** IST day of an ISO timestamp; undefined when it is not one. */
export function istDayOfTimestamp(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return undefined;
  return istDay(new Date(ms));
}

import { type CalendarDate, formatDate, istDate } from './ist';

export const MINIMUM_AGE = 18;

/** Whole years between a birth date and a day, by year, month and day. */
export function ageOn(birth: CalendarDate, on: CalendarDate): number {
  let age = on.year - birth.year;
  if (on.month < birth.month || (on.month === birth.month && on.day < birth.day)) age -= 1;
  return age;
}

/** Age in whole years today in IST. */
export function ageToday(birth: CalendarDate, now: Date): number {
  return ageOn(birth, istDate(now));
}

/**
 * The latest birth date that is old enough today (IST): the date input's maximum.
 * 29 February birthdays fall back to 28 February in common years.
 */
export function latestBirthDateForMinimumAge(now: Date, minimumAge = MINIMUM_AGE): string {
  const today = istDate(now);
  const year = today.year - minimumAge;
  const lastDay = new Date(Date.UTC(year, today.month, 0)).getUTCDate();
  return formatDate({ year, month: today.month, day: Math.min(today.day, lastDay) });
}

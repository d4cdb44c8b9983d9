import { type InputHTMLAttributes, useState } from 'react';
import { parseDisplayDate, toDisplayDate, withSlashes } from '../lib/display-date';

type DateInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'defaultValue'> & {
  /** 'YYYY-MM-DD', '' or, while a date is half typed, what was typed. */
  readonly value: string;
  /** Called with 'YYYY-MM-DD' once the text names a day, '' when emptied, else the text itself. */
  readonly onValueChange: (value: string) => void;
};

/**
 * A date typed and shown dd/mm/yyyy on every browser. A native date input shows the
 * browser locale's order (mm/dd/yyyy on en-US) and cannot be told otherwise; a text
 * input with our own parsing costs a few hundred bytes where a date-picker library
 * would cost the public page's budget.
 */
export function DateInput({ value, onValueChange, onBlur, ...rest }: DateInputProps) {
  const [text, setText] = useState(() => toDisplayDate(value));
  const [seen, setSeen] = useState(value);
  // A value set from outside (Reset, the address bar) replaces the text; one that came from the text does not.
  if (value !== seen) {
    setSeen(value);
    if (value !== (parseDisplayDate(text) ?? text)) setText(toDisplayDate(value));
  }
  return (
    <input
      placeholder="dd/mm/yyyy"
      {...rest}
      type="text"
      inputMode="numeric"
      maxLength={10}
      value={text}
      onChange={(event) => {
        const next = withSlashes(event.target.value);
        setText(next);
        onValueChange(parseDisplayDate(next) ?? next);
      }}
      onBlur={(event) => {
        const day = parseDisplayDate(text);
        if (day) setText(toDisplayDate(day));
        onBlur?.(event);
      }}
    />
  );
}

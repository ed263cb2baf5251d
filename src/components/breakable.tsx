import { Fragment, type ReactNode } from 'react';

/**
 * A text whose long words (usernames such as `@cassiopeia_wanderer1`) may break after `_` and
 * `.` rather than anywhere: a `<wbr>` follows each, which neither the eye nor a screen reader
 * notices. A word with no such place still breaks where it must (the CSS's overflow-wrap).
 */
export function breakable(text: string): ReactNode {
  const parts = text.split(/(?<=[_.])(?=\S)/);
  if (parts.length === 1) return text;
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

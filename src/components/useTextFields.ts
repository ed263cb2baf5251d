import { useState } from 'react';

/** The texts of a small form, with the value and change handler that bind each to its input. */
export function useTextFields<Key extends string>(initial: Record<Key, string>) {
  const [values, setValues] = useState(initial);
  const bind = (key: Key) => ({
    value: values[key],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [key]: event.target.value })),
  });
  return { values, bind };
}

/** The value and change handler of `key`, a text field of a settings section's values. */
export function bindText<Values extends object>(
  values: Values,
  onChange: (patch: Partial<Values>) => void,
) {
  return (key: keyof Values & string) => ({
    value: String(values[key] ?? ''),
    onChange: (event: { target: { value: string } }) =>
      onChange({ [key]: event.target.value } as Partial<Values>),
  });
}

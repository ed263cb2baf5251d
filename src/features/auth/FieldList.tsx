/**
 * A member form's text fields as a list of specs (the login form and the forms built on
 * MemberFields.tsx), apart from those fields, so the login form brings only this.
 */
import type { ReactNode } from 'react';
import { Field, PasswordField } from '../../components/Field.tsx';

/** The value and change handler of one text field of a form. */
export type BindText<Key extends string> = (key: Key) => {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
};

type Errors<Key extends string> = Partial<Record<Key, string | undefined>>;

/** One text field of a member form: its name (also its `data-field`), label and input hints. */
export interface FieldSpec<Key extends string> {
  name: Key;
  label: string;
  type?: 'email' | 'date';
  autoComplete?: string;
  maxLength?: number;
  hint?: ReactNode;
  /** A password, with its Show/Hide toggle. */
  password?: boolean;
}

/** Text fields in order, each bound to the form's values and errors. */
export function FieldList<Key extends string>({
  fields,
  bind,
  errors,
}: {
  fields: readonly FieldSpec<Key>[];
  bind: BindText<Key>;
  errors?: Errors<Key>;
}) {
  return fields.map(({ name, password = false, ...field }) => {
    const Input = password ? PasswordField : Field;
    return (
      <div key={name} data-field={name}>
        <Input name={name} {...field} {...bind(name)} error={errors?.[name]} />
      </div>
    );
  });
}

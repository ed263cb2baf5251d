import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FormSubmit } from './FormSubmit.tsx';
import { useTextFields } from './useTextFields.ts';

afterEach(cleanup);

describe('useTextFields', () => {
  it('binds each text to its input and keeps the others', () => {
    const { result } = renderHook(() => useTextFields({ identifier: '', password: 'x' }));
    expect(result.current.bind('password').value).toBe('x');
    act(() => result.current.bind('identifier').onChange({ target: { value: 'nova' } }));
    expect(result.current.values).toEqual({ identifier: 'nova', password: 'x' });
  });
});

describe('FormSubmit', () => {
  it('announces the error and reads the busy label while sending', () => {
    const { rerender } = render(
      <FormSubmit error={null} busy={false} label="Login" busyLabel="Logging in..." />,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button').textContent).toBe('Login');
    rerender(<FormSubmit error="Login failed." busy label="Login" busyLabel="Logging in..." />);
    expect(screen.getByRole('alert').textContent).toBe('Login failed.');
    const button = screen.getByRole('button');
    expect([button.textContent, button.hasAttribute('disabled')]).toEqual(['Logging in...', true]);
  });
});

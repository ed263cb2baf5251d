import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFirstScreen } from './firstScreenStarter.ts';

/** Stands in for React's first render: the first screen's tree replaced by the app's own. */
function renderApp(onLogin: () => void, onTheme: () => void) {
  const root = document.getElementById('root');
  if (!root) throw new Error('no root');
  const main = document.createElement('main');
  const theme = document.createElement('button');
  theme.setAttribute('aria-label', 'Switch to light theme');
  theme.addEventListener('click', onTheme);
  const login = document.createElement('button');
  login.textContent = 'Login';
  login.addEventListener('click', onLogin);
  main.append(theme, login);
  root.replaceChildren(main);
}

const started = () =>
  new Promise<void>((resolve) => {
    startFirstScreen(resolve);
  });

describe('the first screen before the app runs', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  function firstScreen() {
    document.body.innerHTML =
      '<div id="root"><main><button aria-label="Switch to light theme"></button><button type="button">Login</button></main></div>';
  }

  it('where paint timing is missing, preloads the named chunks and starts the app two frames on', async () => {
    firstScreen();
    const chunks = Array.from({ length: 12 }, (_, i) => {
      const chunk = document.createElement('link');
      chunk.setAttribute('data-after-paint', '');
      chunk.href = `/assets/chunk-${i}.js`;
      return chunk;
    });
    document.head.append(...chunks);
    const preloading = () => chunks.filter((chunk) => chunk.rel === 'modulepreload').length;
    const frame = vi.spyOn(window, 'requestAnimationFrame');
    const running = started();
    expect(preloading()).toBe(0);
    await running;
    expect(frame).toHaveBeenCalledTimes(2);
    // A few in the task that starts the app, the entry's first; the rest in tasks of their own.
    expect(chunks.slice(0, 5).map((chunk) => chunk.rel)).toEqual(Array(5).fill('modulepreload'));
    expect(preloading()).toBe(5);
    await vi.waitFor(() => expect(preloading()).toBe(12));
    frame.mockRestore();
    for (const chunk of chunks) chunk.remove();
  });

  it.each([
    {
      when: 'the button pressed before it ran',
      pressed: 'button[type="button"]',
      pressedAgain: 'login',
      notPressed: 'theme',
    },
    {
      when: 'an icon button, found by its accessible name',
      pressed: '[aria-label]',
      pressedAgain: 'theme',
      notPressed: 'login',
    },
  ] as const)(
    'presses again, on the app’s screen, $when',
    async ({ pressed, pressedAgain, notPressed }) => {
      firstScreen();
      const running = started();
      document.querySelector<HTMLButtonElement>(pressed)?.click();
      await running;
      const clicks = { login: vi.fn(), theme: vi.fn() };
      renderApp(clicks.login, clicks.theme);
      await new Promise((resolve) => setTimeout(resolve));
      expect(clicks[pressedAgain]).toHaveBeenCalledTimes(1);
      expect(clicks[notPressed]).not.toHaveBeenCalled();
    },
  );

  it('presses nothing when nothing was pressed, nor for presses once the app is there', async () => {
    firstScreen();
    await started();
    const login = vi.fn();
    renderApp(login, vi.fn());
    await new Promise((resolve) => setTimeout(resolve));
    expect(login).not.toHaveBeenCalled();
    document.querySelector<HTMLButtonElement>('main button:last-child')?.click();
    await new Promise((resolve) => setTimeout(resolve));
    expect(login).toHaveBeenCalledTimes(1);
  });
});

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
    const chunk = document.createElement('link');
    chunk.setAttribute('data-after-paint', '');
    chunk.href = '/assets/index.js';
    document.head.append(chunk);
    const frame = vi.spyOn(window, 'requestAnimationFrame');
    const running = started();
    expect(chunk.rel).toBe('');
    await running;
    expect(frame).toHaveBeenCalledTimes(2);
    expect(chunk.rel).toBe('modulepreload');
    frame.mockRestore();
    chunk.remove();
  });

  it('presses again, on the app’s screen, the button pressed before it ran', async () => {
    firstScreen();
    const running = started();
    document.querySelector<HTMLButtonElement>('button[type="button"]')?.click();
    await running;
    const login = vi.fn();
    const theme = vi.fn();
    renderApp(login, theme);
    await new Promise((resolve) => setTimeout(resolve));
    expect(login).toHaveBeenCalledTimes(1);
    expect(theme).not.toHaveBeenCalled();
  });

  it('finds an icon button by its accessible name', async () => {
    firstScreen();
    const running = started();
    document.querySelector<HTMLButtonElement>('[aria-label]')?.click();
    await running;
    const login = vi.fn();
    const theme = vi.fn();
    renderApp(login, theme);
    await new Promise((resolve) => setTimeout(resolve));
    expect(theme).toHaveBeenCalledTimes(1);
    expect(login).not.toHaveBeenCalled();
  });

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

import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/** A crash in one screen shows a way back instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('Orbit crashed while drawing this page', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="centered-page" role="alert">
        <h1>Something went wrong.</h1>
        <p>Reload the page to try again.</p>
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </main>
    );
  }
}

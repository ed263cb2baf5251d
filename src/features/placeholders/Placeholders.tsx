import './Placeholders.css';

export function SpaceHubPage() {
  return (
    <main className="placeholder" id="main">
      <h1>Space Hub – Development in Progress</h1>
    </main>
  );
}

export function InProgressPage({ title }: { title: string }) {
  return (
    <main className="placeholder" id="main" aria-label={title}>
      <p className="placeholder-text">Development in Progress</p>
    </main>
  );
}

export function CreatorsHubPage() {
  return <InProgressPage title="CreatorsHub" />;
}

import { useId } from 'react';

/** The post box: visible, but posting is not built yet (docs/decisions.md "Profile quote, share and unbuilt parts"). */
export function PostBox() {
  const headingId = useId();
  const fieldId = useId();
  return (
    <section className="profile-card profile-post" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        New post
      </h2>
      <label htmlFor={fieldId} className="visually-hidden">
        What&apos;s on your mind?
      </label>
      <textarea id={fieldId} rows={3} placeholder="What's on your mind?" />
      <div className="profile-post-actions">
        <button type="button" className="button primary" disabled title="Coming soon">
          Post
        </button>
      </div>
    </section>
  );
}

import { useId } from 'react';

/**
 * The post box: visible, but posting is not built yet (docs/decisions.md "Profile quote, share
 * and unbuilt parts"). The field takes no typing and says so in words, not only in a tooltip.
 */
export function PostBox() {
  const headingId = useId();
  const fieldId = useId();
  const soonId = useId();
  return (
    <section className="profile-card profile-post" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        New post
      </h2>
      <label htmlFor={fieldId} className="visually-hidden">
        What&apos;s on your mind?
      </label>
      <textarea
        id={fieldId}
        rows={3}
        placeholder="What's on your mind?"
        disabled
        aria-describedby={soonId}
      />
      <div className="profile-post-actions">
        <p id={soonId} className="profile-post-soon">
          Coming soon
        </p>
        <button type="button" className="button primary" disabled title="Coming soon">
          Post
        </button>
      </div>
    </section>
  );
}

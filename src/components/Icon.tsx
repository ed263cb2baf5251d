/** A one-path 24×24 icon in the text colour, hidden from assistive technology (its button is named). */
export function Icon({ path, size }: { path: string; size: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width={size} height={size}>
      <path fill="currentColor" d={path} />
    </svg>
  );
}

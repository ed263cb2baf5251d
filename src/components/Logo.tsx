/** Orbit's mark: a planet inside its ring. */
export function Logo({ size = 40 }: { size?: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 64 64" width={size} height={size} className="logo">
      <defs>
        <linearGradient id="orbit-planet" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#a78bfa" />
          <stop offset="1" stopColor="#4f46e5" />
        </linearGradient>
      </defs>
      <circle cx="32" cy="32" r="16" fill="url(#orbit-planet)" />
      <ellipse
        cx="32"
        cy="32"
        rx="29"
        ry="10"
        fill="none"
        stroke="#2ec4b6"
        strokeWidth="3"
        transform="rotate(-20 32 32)"
      />
      <circle cx="56" cy="22" r="3" fill="#f5d76e" />
    </svg>
  );
}

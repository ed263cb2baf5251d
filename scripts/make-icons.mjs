// Draws Orbit's logo mark (a ringed planet) and the default avatar, and writes every size the
// app and its manifest use into public/. Run `node scripts/make-icons.mjs` after changing them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
const SPACE = '#0b1026';

/** The planet and its ring on a 64-unit canvas; the ring's far half passes behind the planet. */
const MARK = `
  <defs>
    <linearGradient id="planet" x1="0.2" y1="0.1" x2="0.8" y2="0.95">
      <stop offset="0" stop-color="#c4b5fd"/>
      <stop offset="0.55" stop-color="#7c3aed"/>
      <stop offset="1" stop-color="#3730a3"/>
    </linearGradient>
    <linearGradient id="ring" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#fde68a"/>
      <stop offset="1" stop-color="#f59e0b"/>
    </linearGradient>
    <clipPath id="far"><rect x="-8" y="-8" width="80" height="40"/></clipPath>
    <clipPath id="near"><rect x="-8" y="32" width="80" height="40"/></clipPath>
  </defs>
  <g transform="rotate(-22 32 32)">
    <ellipse cx="32" cy="32" rx="28" ry="8.5" fill="none" stroke="url(#ring)" stroke-width="3.6" clip-path="url(#far)"/>
    <circle cx="32" cy="32" r="17" fill="url(#planet)"/>
    <path d="M16 29.5 Q32 25 48 29.5" fill="none" stroke="#ddd6fe" stroke-opacity="0.35" stroke-width="2.2" stroke-linecap="round"/>
    <path d="M16.5 36.5 Q32 40.5 47.5 36.5" fill="none" stroke="#1e1b4b" stroke-opacity="0.25" stroke-width="2.4" stroke-linecap="round"/>
    <ellipse cx="32" cy="32" rx="28" ry="8.5" fill="none" stroke="url(#ring)" stroke-width="3.6" clip-path="url(#near)"/>
  </g>`;

const svg = (body, viewBox = '0 0 64 64') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}">${body}\n</svg>\n`;

/** Transparent background: the favicon and the mark itself. */
const markSvg = svg(MARK);
/** A rounded dark tile, for launchers that show the icon as it is. */
const tileSvg = svg(
  `<rect width="64" height="64" rx="14" fill="${SPACE}"/><g transform="translate(4.8 4.8) scale(0.85)">${MARK}</g>`,
);
/** Full-bleed background with the mark inside the central safe zone, for maskable icons. */
const maskableSvg = svg(
  `<rect width="64" height="64" fill="${SPACE}"/><g transform="translate(9.6 9.6) scale(0.7)">${MARK}</g>`,
);

/** The default avatar: a neutral head-and-shoulders silhouette. */
const avatarSvg = svg(
  `<rect width="256" height="256" fill="#d7dbe2"/>
  <circle cx="128" cy="100" r="48" fill="#9aa3b2"/>
  <path d="M40 256 C40 190 82 160 128 160 C174 160 216 190 216 256 Z" fill="#9aa3b2"/>`,
  '0 0 256 256',
);

const png = (source, size) =>
  sharp(Buffer.from(source), { density: 72 * (size / 64) })
    .resize(size, size)
    .png();

fs.mkdirSync(path.join(publicDir, 'icons'), { recursive: true });
fs.writeFileSync(path.join(publicDir, 'favicon.svg'), markSvg);
fs.writeFileSync(path.join(publicDir, 'icons', 'icon.svg'), tileSvg);
fs.writeFileSync(path.join(publicDir, 'icons', 'maskable.svg'), maskableSvg);
await Promise.all([
  png(tileSvg, 192).toFile(path.join(publicDir, 'icons', 'icon-192.png')),
  png(tileSvg, 512).toFile(path.join(publicDir, 'icons', 'icon-512.png')),
  png(maskableSvg, 512).toFile(path.join(publicDir, 'icons', 'maskable-512.png')),
  // iOS draws its own rounded corners over an opaque square.
  png(maskableSvg, 180).toFile(path.join(publicDir, 'icons', 'apple-touch-icon.png')),
  png(markSvg, 32).toFile(path.join(publicDir, 'icons', 'favicon-32.png')),
  sharp(Buffer.from(avatarSvg))
    .resize(256, 256)
    .jpeg({ quality: 85, mozjpeg: true })
    .toFile(path.join(publicDir, 'profilepic.jpg')),
]);
console.log(`Icons and the default avatar written to ${publicDir}`);

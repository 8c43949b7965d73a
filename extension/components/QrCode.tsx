import { encode } from 'uqr';

/**
 * A QR code as an SVG path (one square per dark module), dark on light whatever the theme so
 * that phones can scan it.
 */
export function QrCode({ text, label, size = 160 }: { text: string; label: string; size?: number }) {
  const { data, size: modules } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) => row.forEach((dark, x) => (d += dark ? `M${x} ${y}h1v1h-1z` : '')));
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shape-rendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

import { useEffect, useState } from 'preact/hooks';
import type { QrPath } from '../lib/relay';

/**
 * A QR code as an SVG path, dark on light whatever the theme so that phones can scan it. The
 * path is drawn by `draw` (the background's encoder); nothing shows until it arrives.
 */
export function QrCode({ text, label, draw, size = 160 }: { text: string; label: string; draw(text: string): Promise<QrPath>; size?: number }) {
  const [qr, setQr] = useState<QrPath | null>(null);
  useEffect(() => {
    let live = true;
    void draw(text).then((drawn) => live && setQr(drawn), () => undefined);
    return () => {
      live = false;
    };
  }, [text, draw]);
  if (!qr) return null;
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${qr.modules} ${qr.modules}`}
      shape-rendering="crispEdges"
    >
      <rect width={qr.modules} height={qr.modules} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

import { encode } from 'uqr';
import type { QrPath } from './relay';

/**
 * A QR code as an SVG path (one square per dark module) with a 2-module quiet zone, error
 * correction M. Runs in the background (see relay.ts): the encoder stays out of the popup.
 */
export function qrPath(text: string): QrPath {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) => row.forEach((dark, x) => (path += dark ? `M${x} ${y}h1v1h-1z` : '')));
  return { modules: size, path };
}

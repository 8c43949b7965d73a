import { renderSVG } from 'uqr';

/**
 * A QR code of `text` as a standalone SVG document: its own `xmlns`, a pixel size and the
 * colours as attributes, so it also renders outside this page. The official Password Pusher
 * extension takes the best-looking `<svg>` out of `/p/<token>/preview` and draws it into a
 * canvas through an image; that needs the `xmlns` and a size, and it prefers an svg whose id,
 * class or label mentions "qr".
 */
export function qrSvg(text: string, label: string): string {
  const svg = renderSVG(text, { border: 2 });
  const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const size = box ? ` width="${box[1]}" height="${box[2]}"` : '';
  const attrs = ` id="qrcode" class="qrcode" role="img" aria-label="${escapeAttribute(label)}"${size}`;
  return svg.replace(/^<svg /, `<svg${attrs} `);
}

/** The same code as a data: URI for an <img>. */
export function qrDataUri(text: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderSVG(text, { border: 2 }), 'utf8').toString('base64')}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

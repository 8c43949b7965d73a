// The link-ready page of an end-to-end push: a QR code of the whole link, key included, drawn
// here from the link the create script completed. The server cannot draw it (it never had the
// key), and the encoder (uqr, the server's own, ~4 KB gzipped) is its own script, loaded by the
// create script only once a link is ready, so the create form does not carry it.
import { renderSVG } from 'uqr';

const box = document.querySelector<HTMLElement>('[data-e2e-qr]');
const code = box?.querySelector<HTMLElement>('[data-e2e-qr-code]');
const link = document.getElementById('secret-link')?.textContent ?? '';
if (box && code && link.includes('#')) {
  const svg = new DOMParser().parseFromString(renderSVG(link, { border: 2 }), 'image/svg+xml').documentElement;
  const box3 = /0 0 (\d+) (\d+)/.exec(svg.getAttribute('viewBox') ?? '');
  if (box3) {
    svg.setAttribute('width', box3[1]!);
    svg.setAttribute('height', box3[2]!);
  }
  svg.setAttribute('id', 'qrcode');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', code.dataset.label ?? '');
  code.replaceChildren(document.importNode(svg, true));
  box.hidden = false;
}

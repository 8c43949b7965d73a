import { Hono } from 'hono';
import type { Brand } from '../branding/brand.js';

const LOGO_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png', webp: 'image/webp' };

/**
 * The branding's own assets, from our origin so the CSP stays 'self': /assets/brand.css (the
 * primary colour and BRAND_CSS) and the logo file from the data directory.
 */
export function brandRoutes(brand: Brand): Hono {
  const app = new Hono();
  if (brand.css !== null) {
    const body = new TextEncoder().encode(brand.css);
    app.get('/assets/brand.css', (c) => c.body(body, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=300' }));
  }
  const file = brand.logo?.file;
  if (file) {
    const type = LOGO_TYPES[file.name.slice(file.name.lastIndexOf('.') + 1)]!;
    // An SVG opened on its own runs under our origin: no script at all there.
    const headers = { 'Content-Type': type, 'Cache-Control': 'public, max-age=300', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" };
    app.get(`/assets/${file.name}`, (c) => c.body(new Uint8Array(file.body), 200, headers));
  }
  return app;
}

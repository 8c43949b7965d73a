import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type BrandSettings } from '../config.js';
import { contrastRatio, lighten } from './contrast.js';

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;
/** The backgrounds the accent colour is shown on (style.css): page and cards, light and dark. */
const LIGHT_BACKGROUNDS = ['#fbfbfd', '#ffffff'];
const DARK_BACKGROUNDS = ['#121317', '#1c1e24'];
const TEXT_ON_ACCENT = ['#ffffff', '#0b0c10'];
/** A logo in the data directory, served by us at /assets/<name> (the first that exists). */
export const LOGO_FILES = ['brand-logo.svg', 'brand-logo.png', 'brand-logo.webp'];

export interface FooterLink {
  kind: 'privacy' | 'terms' | 'imprint';
  href: string;
}

/**
 * The branding every page (and, through productName, the e-mails) shows, decided once at start:
 * the name, the logo, a stylesheet served from our own origin (the primary colour for both
 * themes, then the operator's BRAND_CSS) and the footer links. Unset, pages look as they did.
 */
export interface Brand {
  /** BRAND_NAME, or undefined for the translated default ("Secret Push"). */
  name: string | undefined;
  logo: { src: string; file?: { name: string; body: Buffer } } | null;
  /** The generated stylesheet, /assets/brand.css; null when nothing is branded by CSS. */
  css: string | null;
  footerLinks: FooterLink[];
  /** Another origin the pages may load the logo from (added to the CSP's img-src only). */
  imageOrigin: string | undefined;
}

/** The product's name wherever it is written (pages, e-mails, the extension after connecting). */
export function productName(brand: Pick<Brand, 'name'> | undefined): string {
  return brand?.name ?? 'Secret Push';
}

/** Reads and checks the branding settings; a colour without enough contrast or a missing file stops the start. */
export function loadBrand(settings: BrandSettings, dataDir: string): Brand {
  let css = '';
  if (settings.primaryColor) css += accentCss(settings.primaryColor);
  if (settings.cssFile) {
    try {
      css += `/* BRAND_CSS: ${settings.cssFile.replace(/\*\//g, '')} */\n` + readFileSync(settings.cssFile, 'utf8');
    } catch (e) {
      throw new ConfigError(`Invalid configuration:\n  BRAND_CSS: cannot read ${settings.cssFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  let logo: Brand['logo'] = null;
  let imageOrigin: string | undefined;
  const logoFile = LOGO_FILES.find((f) => existsSync(join(dataDir, f)));
  if (logoFile) logo = { src: `/assets/${logoFile}`, file: { name: logoFile, body: readFileSync(join(dataDir, logoFile)) } };
  else if (settings.logoUrl) {
    logo = { src: settings.logoUrl };
    imageOrigin = new URL(settings.logoUrl).origin;
  }
  const footerLinks: FooterLink[] = [];
  if (settings.privacyUrl) footerLinks.push({ kind: 'privacy', href: settings.privacyUrl });
  if (settings.termsUrl) footerLinks.push({ kind: 'terms', href: settings.termsUrl });
  if (settings.imprintUrl) footerLinks.push({ kind: 'imprint', href: settings.imprintUrl });
  return { name: settings.name, logo, css: css || null, footerLinks, imageOrigin };
}

/**
 * The primary colour as the accent of both themes. In the light theme it must itself reach
 * 4.5:1 on the page and on cards (links and buttons are drawn in it), else the start is
 * refused with the ratio; the dark theme uses it lightened just enough to reach 4.5:1 on dark
 * backgrounds. Text on it is white or near-black, whichever contrasts more.
 */
export function accentCss(color: string): string {
  const light = Math.min(...LIGHT_BACKGROUNDS.map((bg) => contrastRatio(color, bg)));
  if (light < MIN_CONTRAST) {
    throw new ConfigError(
      `Invalid configuration:\n  BRAND_PRIMARY_COLOR: ${color} has a contrast of ${light.toFixed(2)}:1 on the light pages' background; links and buttons need at least ${MIN_CONTRAST}:1 (choose a darker colour)`,
    );
  }
  let dark = color;
  for (let step = 0; step <= 20 && Math.min(...DARK_BACKGROUNDS.map((bg) => contrastRatio(dark, bg))) < MIN_CONTRAST; step++) dark = lighten(color, step / 20);
  const onAccent = (c: string) => TEXT_ON_ACCENT.reduce((best, fg) => (contrastRatio(c, fg) > contrastRatio(c, best) ? fg : best));
  return `/* BRAND_PRIMARY_COLOR, checked for ${MIN_CONTRAST}:1 contrast in both themes */
:root { --accent: ${color}; --accent-fg: ${onAccent(color)}; }
@media (prefers-color-scheme: dark) {
  :root { --accent: ${dark}; --accent-fg: ${onAccent(dark)}; }
}
`;
}

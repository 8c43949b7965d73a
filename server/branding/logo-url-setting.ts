import { z } from 'zod';

const NOT_AN_IMAGE_ADDRESS =
  'must be the http:// or https:// address of an image, e.g. https://cdn.example.com/logo.svg (for a file of ours, put brand-logo.svg, .png or .webp in DATA_DIR instead)';

/**
 * BRAND_LOGO_URL: an image on another host, written into every page's HTML and its origin into
 * the CSP's img-src. Refused at start with a message that says what is expected, not zod's bare
 * "Invalid URL": anything but http(s), and a user name or password in it (every visitor would
 * read them in the page's source).
 */
export const logoUrlSetting = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: NOT_AN_IMAGE_ADDRESS });
      return;
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) ctx.addIssue({ code: 'custom', message: NOT_AN_IMAGE_ADDRESS });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password: every visitor reads it in the page' });
  });

/**
 * An http:// logo on pages served over https:// is mixed content: Chromium upgrades it to https
 * (and shows nothing when that fails), Firefox blocks or warns. Said at start instead.
 */
export function logoMixedContent(e: { BASE_URL?: string; BRAND_LOGO_URL?: string }): boolean {
  return Boolean(e.BASE_URL?.startsWith('https:') && e.BRAND_LOGO_URL?.startsWith('http:'));
}

export const LOGO_MIXED_CONTENT_MESSAGE = 'is http:// but BASE_URL is https://: browsers block or rewrite such an image as mixed content; use an https:// address';

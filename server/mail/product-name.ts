/**
 * The product's name as e-mails show it (sender name, subjects, signatures). One place, so that
 * branding (issue 32) can swap it for an operator's own name.
 */
export const PRODUCT_NAME = 'Secret Push';

import { Hono } from 'hono';
import type { CatalogueService } from '../catalogue/catalogue-service.js';

// Placeholder: the catalogue helper replaces this (api.php, /api/catalogue/*, /catalogue pages).
export function createCatalogueRoutes(_catalogue: CatalogueService): Hono {
  return new Hono();
}

import { Hono } from 'hono';
import type { AccountService } from '../accounts/account-service.js';
import type { Config } from '../config.js';
import type { PushService } from '../pushes/push-service.js';
import type { AppEnv } from './app-env.js';

export interface PageDeps {
  config: Config;
  pushes: PushService;
  accounts: AccountService;
}

// Placeholder: the pages helper replaces this (recipient pages, create page, account pages).
export function createPageRoutes(_deps: PageDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}

import { Hono } from 'hono';
import type { PushService } from '../../pushes/push-service.js';
import type { AppEnv } from '../app-env.js';

// Placeholder: the compatibility helper replaces this (legacy v1 JSON API).
export function v1Routes(_pushes: PushService, _maxFileBytes: number): Hono<AppEnv> {
  return new Hono<AppEnv>();
}

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DecryptionError, KeyRing } from '../../../server/crypto/key-ring.js';
import { openName, sealName } from '../../../server/pushes/push-name.js';
import { openOutboxBody } from '../../../server/webhooks/webhook-events.js';

/** Names and outbox bodies are sealed at rest; what was stored before they were is read as it is. */
describe('sealed push names and outbox bodies', () => {
  const keys = new KeyRing(randomBytes(32));

  it('a name is sealed, and opens to itself', () => {
    const sealed = sealName(keys, 'for Bob')!;
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('Bob');
    expect(openName(keys, sealed)).toBe('for Bob');
    expect([sealName(keys, null), openName(keys, null), openName(keys, undefined)]).toEqual([null, null, null]);
  });

  it('a name stored plain (before names were sealed) reads as it is, also one that starts with v1.', () => {
    for (const plain of ['for Bob', 'v1.2 release notes', 'v1.2.3', 'v1.a.b']) expect(openName(keys, plain)).toBe(plain);
  });

  it('a sealed name under a key the ring does not hold is an error (DecryptionError), never shown as the name', () => {
    const sealed = sealName(keys, 'for Bob')!;
    expect(() => openName(new KeyRing(randomBytes(32)), sealed)).toThrow(DecryptionError);
  });

  it('an outbox body is opened when sealed, and sent as it is when stored as JSON', () => {
    expect(openOutboxBody(keys, keys.seal('{"type":"push.created"}'))).toBe('{"type":"push.created"}');
    expect(openOutboxBody(keys, '{"type":"push.viewed"}')).toBe('{"type":"push.viewed"}');
  });
});

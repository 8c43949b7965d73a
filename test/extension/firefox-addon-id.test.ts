import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIREFOX_ADDON_ID, firefoxAddonId } from '../../extension/lib/firefox-addon-id';

/** The Firefox add-on id chosen at build time (wxt.config.ts puts it in the manifest). */
describe('firefoxAddonId', () => {
  it('is the project GUID when FIREFOX_ADDON_ID is not set (or empty)', () => {
    expect(firefoxAddonId({})).toBe(DEFAULT_FIREFOX_ADDON_ID);
    expect(firefoxAddonId({ FIREFOX_ADDON_ID: '  ' })).toBe(DEFAULT_FIREFOX_ADDON_ID);
    expect(DEFAULT_FIREFOX_ADDON_ID).not.toContain('example.org');
  });

  it('takes an e-mail-like id or a GUID in braces from FIREFOX_ADDON_ID', () => {
    expect(firefoxAddonId({ FIREFOX_ADDON_ID: 'secret-push@it.example.com' })).toBe('secret-push@it.example.com');
    expect(firefoxAddonId({ FIREFOX_ADDON_ID: ' {0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9} ' })).toBe('{0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9}');
  });

  it('stops the build on an id Firefox would refuse, saying what it must look like', () => {
    for (const bad of ['secret-push', 'push@', 'a b@example.com', '{not-a-guid}', `${'x'.repeat(70)}@example.com`]) {
      expect(() => firefoxAddonId({ FIREFOX_ADDON_ID: bad }), bad).toThrow(/not an add-on id Firefox accepts.*e-mail-like.*GUID/);
    }
  });

  it('is the id the example policies.json names (deploy/policies/)', () => {
    const policies = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../deploy/policies/firefox-policies.json'), 'utf8')).policies;
    expect(Object.keys(policies.ExtensionSettings)).toEqual([DEFAULT_FIREFOX_ADDON_ID]);
    expect(Object.keys(policies['3rdparty'].Extensions)).toEqual([DEFAULT_FIREFOX_ADDON_ID]);
  });
});

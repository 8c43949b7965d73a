import { describe, expect, it } from 'vitest';
import type { ParamDescriptor } from '../../../shared/catalogue-schema.js';
import { createCatalogueService } from '../../../server/catalogue/catalogue-service.js';
import { sortEnumValues } from '../../../server/catalogue/natural-sort.js';
import { readSpec, type ExpectedParam } from './spec-notation.js';

const spec = readSpec(new URL('./fixtures/query-module-catalogue.md', import.meta.url).pathname);
const catalogue = createCatalogueService({ wikiBaseUrl: 'https://www.mediawiki.org/wiki' });

/** The comparable part of a descriptor, in the same shape as the spec's expectation. */
function actual(p: ParamDescriptor): ExpectedParam {
  return {
    name: p.name,
    type: Array.isArray(p.type) ? [...p.type].sort() : p.type,
    ...(p.default !== undefined ? { default: p.default } : {}),
    multi: p.multi ?? false,
    required: p.required ?? false,
    deprecated: p.deprecated ?? false,
    deprecatedValues: [...(p.deprecatedValues ?? [])].sort(),
    ...(p.allSpecifier !== undefined ? { allSpecifier: p.allSpecifier } : {}),
    allowsDuplicates: p.allowsDuplicates ?? false,
    sensitive: p.sensitive ?? false,
    ...(p.extraNamespaces ? { extraNamespaces: p.extraNamespaces } : {}),
    ...(p.subtypes ? { subtypes: [...p.subtypes].sort() } : {}),
    ...(p.min !== undefined ? { min: p.min } : {}),
    ...(p.max !== undefined ? { max: p.max } : {}),
    ...(p.highmax !== undefined ? { highmax: p.highmax } : {}),
    ...(p.info ? { info: p.info } : {}),
    ...(p.templateVars ? { templateVars: p.templateVars } : {}),
  };
}

function expected(p: ExpectedParam): ExpectedParam {
  return {
    ...p,
    type: Array.isArray(p.type) ? [...p.type].sort() : p.type,
    deprecatedValues: [...p.deprecatedValues].sort(),
    ...(p.subtypes ? { subtypes: [...p.subtypes].sort() } : {}),
  };
}

describe('the catalogue against the spec', () => {
  it('reads all 64 modules from the spec, numbered 1 to 64', () => {
    expect(spec.modules.map((m) => m.number)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    expect(catalogue.listModules().map((m) => m.name)).toEqual(spec.modules.map((m) => m.name).sort());
  });

  describe.each(spec.modules.map((m) => [m.name, m] as const))('%s', (name, want) => {
    const module = catalogue.getModule(name)!;

    it('has the group, prefix, path and flags of the spec', () => {
      expect({
        group: module.group,
        prefix: module.prefix,
        path: module.path,
        generator: module.generator,
        readRights: module.readRights,
        deprecated: module.deprecated,
      }).toEqual({
        group: want.group,
        prefix: want.prefix,
        path: `query+${name}`,
        generator: want.generator,
        readRights: want.readRights,
        deprecated: want.deprecated,
      });
      if (want.noHelpUrls) expect(module.helpUrls).toEqual([]);
      else expect(module.helpUrls.length).toBeGreaterThan(0);
    });

    it('has the parameters of the spec, in its order, with indexes 1…n', () => {
      expect(module.parameters.map((p) => p.name)).toEqual(want.params.map((p) => p.name));
      expect(module.parameters.map((p) => p.index)).toEqual(module.parameters.map((_, i) => i + 1));
    });

    it.each(want.params.map((p) => [p.name, p] as const))('parameter %s matches the spec', (paramName, p) => {
      const param = module.parameters.find((q) => q.name === paramName)!;
      expect(actual(param)).toEqual(expected(p));
    });

    it('lists enumeration values in natural order with deprecated values last', () => {
      for (const param of module.parameters) {
        if (Array.isArray(param.type)) expect(param.type).toEqual(sortEnumValues(param.type, param.deprecatedValues));
      }
    });
  });

  it('keeps the RIGHTS-C set as RIGHTS without the nine rights the spec names', () => {
    expect(spec.sets.RIGHTS).toHaveLength(94);
    expect(spec.sets['RIGHTS-C']).toHaveLength(85);
    const contributors = catalogue.getModule('contributors')!.parameters.find((p) => p.name === 'rights')!;
    expect([...(contributors.type as string[])].sort()).toEqual([...spec.sets['RIGHTS-C']!].sort());
  });

  it('includes the Codex Logo family, sorted in with the other icons', () => {
    const names = catalogue.getModule('codexicons')!.parameters[0]!.type as string[];
    expect(names).toHaveLength(235 + 18);
    expect(names).toContain('cdxIconLogoCodex');
    expect(names).toContain('cdxIconLogoWiktionary');
    expect(names.slice(names.indexOf('cdxIconLock'), names.indexOf('cdxIconLock') + 4)).toEqual([
      'cdxIconLock', 'cdxIconLogIn', 'cdxIconLogOut', 'cdxIconLogoCC',
    ]);
  });

  it('gives the REVSET modules contentformat-{slot} at index 3, plain parameters jumping from 2 to 4', () => {
    for (const name of ['alldeletedrevisions', 'allrevisions', 'deletedrevisions', 'revisions']) {
      const params = catalogue.getModule(name)!.parameters;
      expect(params[2]).toMatchObject({ index: 3, name: 'contentformat-{slot}', templateVars: { slot: 'slots' } });
      expect(params.filter((p) => !p.templateVars).slice(0, 3).map((p) => p.index)).toEqual([1, 2, 4]);
    }
  });
});

import type { ApiModuleInput, ModuleGroup, ParamInput } from '../../shared/catalogue-schema.js';

/** Where MediaWiki documents its core API modules. */
export const helpBase = 'https://www.mediawiki.org/wiki/Special:MyLanguage/';

export interface QueryModuleDefinition {
  name: string;
  group: ModuleGroup;
  prefix: string;
  className: string;
  generator?: boolean;
  deprecated?: boolean;
  /** Every query module needs the read right except authmanagerinfo and tokens. */
  readRights?: boolean;
  /** Defaults to `API:<Name>` with the first letter upper-cased. */
  helpUrls?: string[];
  parameters: ParamInput[];
}

/** A query module with the defaults most modules share filled in. */
export function queryModule(def: QueryModuleDefinition): ApiModuleInput {
  const { name, group, prefix, className, parameters } = def;
  return {
    name,
    path: `query+${name}`,
    group,
    prefix,
    className,
    generator: def.generator ?? false,
    deprecated: def.deprecated ?? false,
    readRights: def.readRights ?? true,
    helpUrls: def.helpUrls ?? [`${helpBase}API:${name.charAt(0).toUpperCase()}${name.slice(1)}`],
    parameters,
  };
}

import type { InfoMarker, ParamInput, UserSubtype } from '../../shared/catalogue-schema.js';

/**
 * Small constructors for parameter descriptors, so each module file reads like the spec's
 * notation (`from S; dir DIR; limit L`) instead of a wall of object literals.
 */
type Extra = Omit<ParamInput, 'name' | 'type'>;

const param = (name: string, type: ParamInput['type'], extra: Extra): ParamInput => ({ name, type, ...extra });

/** S */
export const str = (name: string, extra: Extra = {}) => param(name, 'string', extra);
/** S[M] */
export const strs = (name: string, extra: Extra = {}) => param(name, 'string', { multi: true, ...extra });
/** I */
export const int = (name: string, extra: Extra = {}) => param(name, 'integer', extra);
/** I[M] */
export const ints = (name: string, extra: Extra = {}) => param(name, 'integer', { multi: true, ...extra });
/** B: booleans never carry a default (false is implied). */
export const bool = (name: string, extra: Extra = {}) => param(name, 'boolean', extra);
/** TS */
export const ts = (name: string, extra: Extra = {}) => param(name, 'timestamp', extra);
/** A page title (info's linkcontext). */
export const title = (name: string, extra: Extra = {}) => param(name, 'title', extra);
/** NS, single-valued. */
export const ns = (name: string, extra: Extra = {}) => param(name, 'namespace', extra);
/** NS[M]: a multi-valued namespace always accepts `*` for all (MediaWiki's NamespaceDef forces it). */
export const nss = (name: string, extra: Extra = {}) =>
  param(name, 'namespace', { multi: true, allSpecifier: '*', ...extra });
/** U with its accepted kinds of user identifier. */
export const user = (name: string, subtypes: readonly UserSubtype[], extra: Extra = {}) =>
  param(name, 'user', { subtypes: [...subtypes], ...extra });
/** U[M] */
export const users = (name: string, subtypes: readonly UserSubtype[], extra: Extra = {}) =>
  param(name, 'user', { multi: true, subtypes: [...subtypes], ...extra });
/** `{a|b|c}`: one value of an enumeration. */
export const oneOf = (name: string, values: readonly string[], extra: Extra = {}) => param(name, [...values], extra);
/** `{a|b|c}[M]`: several values of an enumeration. */
export const someOf = (name: string, values: readonly string[], extra: Extra = {}) =>
  param(name, [...values], { multi: true, ...extra });

/** L: integer 1–500, 5000 with the raised limit, default 10 unless the spec says otherwise. */
export const limit = (extra: Extra = {}): ParamInput => {
  const described = param('limit', 'limit', { default: 10, min: 1, max: 500, highmax: 5000, ...extra });
  // `{ default: undefined }` means "no default" (REVSET); drop the key instead of keeping undefined.
  if (described.default === undefined) delete described.default;
  return described;
};

/** `dep` */
export const dep: Extra = { deprecated: true };
/** Extra namespaces -2 (Media) and -1 (Special). */
export const withExtraNamespaces: Extra = { extraNamespaces: [-2, -1] };

/** An info marker such as `singlepageonly`. */
export const marker = (name: string): Extra => ({ info: [{ name }] });
/** deletedrevs' mode numbers. */
export const modes = (...values: number[]): Extra => ({ info: [{ name: 'modes', values } satisfies InfoMarker] });

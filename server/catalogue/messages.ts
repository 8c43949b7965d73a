/**
 * MediaWiki's codes and English texts for what the validator and api.php report, as the
 * `errorformat=bc`/`plaintext` output shows them (markup such as <kbd> already turned into
 * quotes). One place, so validator, api.php and tests agree on every word.
 */
export interface Message {
  code: string;
  text: string;
}

/** Language::formatNum for English: 5000 → "5,000". */
const num = (n: number) => n.toLocaleString('en-US');
const commaList = (items: readonly string[]) => items.join(', ');

export const messages = {
  badValue: (param: string, value: string): Message => ({
    code: 'badvalue',
    text: `Unrecognized value for parameter "${param}": ${value}.`,
  }),
  notMulti: (param: string): Message => ({
    code: 'badvalue',
    text: `Parameter "${param}" accepts only a single value. U+001F multi-value separation may only be used for multi-valued parameters.`,
  }),
  unrecognizedValues: (param: string, values: readonly string[]): Message => ({
    code: 'unrecognizedvalues',
    text: `Unrecognized ${values.length === 1 ? 'value' : 'values'} for parameter "${param}": ${commaList(values)}`,
  }),
  tooManyValues: (param: string, limit: number): Message => ({
    code: 'toomanyvalues',
    text: `Too many values supplied for parameter "${param}". The limit is ${num(limit)}.`,
  }),
  missingParam: (param: string): Message => ({ code: 'missingparam', text: `The "${param}" parameter must be set.` }),
  badInteger: (param: string, value: string): Message => ({
    code: 'badinteger',
    text: `Invalid value "${value}" for integer parameter "${param}".`,
  }),
  outOfRange: (param: string, value: string, min: number | undefined, max: number | undefined): Message => ({
    code: 'outofrange',
    text:
      min !== undefined && max !== undefined
        ? `The value "${value}" for parameter "${param}" must be between ${num(min)} and ${num(max)}.`
        : min !== undefined
          ? `The value "${value}" for parameter "${param}" must be no less than ${num(min)}.`
          : `The value "${value}" for parameter "${param}" must be no greater than ${num(max ?? 0)}.`,
  }),
  badTimestamp: (param: string, value: string): Message => ({
    code: 'badtimestamp',
    text: `Invalid value "${value}" for timestamp parameter "${param}".`,
  }),
  unclearNowTimestamp: (param: string, value: string): Message => ({
    code: 'unclearnowtimestamp',
    text: `Passing "${value}" for timestamp parameter "${param}" has been deprecated. If for some reason you need to explicitly specify the current time without calculating it client-side, use "now".`,
  }),
  badUser: (param: string, value: string): Message => ({
    code: 'baduser',
    text: `Invalid value "${value}" for user parameter "${param}".`,
  }),
  badTitle: (value: string): Message => ({ code: 'badtitle', text: `Bad title "${value}".` }),
  deprecatedParam: (param: string): Message => ({
    code: 'deprecation',
    text: `The parameter "${param}" has been deprecated.`,
  }),
  deprecatedValue: (param: string, value: string): Message => ({
    code: 'deprecation',
    text: `The value "${value}" to parameter "${param}" has been deprecated.`,
  }),
  unrecognizedParams: (params: readonly string[]): Message => ({
    code: 'unrecognizedparams',
    text: `Unrecognized ${params.length === 1 ? 'parameter' : 'parameters'}: ${commaList(params)}.`,
  }),
  unknownGenerator: (name: string): Message => ({ code: 'badgenerator', text: `Unknown "generator=${name}".` }),
  notGenerator: (name: string): Message => ({
    code: 'badgenerator',
    text: `Module "${name}" cannot be used as a generator.`,
  }),
  badSubmodule: (parent: string, name: string): Message => ({
    code: 'badmodule',
    text: `The module "${parent}" does not have a submodule "${name}".`,
  }),
  noSubmodules: (path: string): Message => ({ code: 'badmodule', text: `The module "${path}" has no submodules.` }),
  moduleDisabled: (name: string): Message => ({
    code: 'moduledisabled',
    text: `The "${name}" module has been disabled.`,
  }),
};

import { z } from 'zod';

/**
 * The query module catalogue, defined once: the server validates its data with these schemas
 * at start-up, the REST routes and tRPC procedures take their input through them, and the
 * browser may import them (no Node or DOM APIs here).
 *
 * Names follow MediaWiki's paraminfo vocabulary so that a descriptor reads like the wiki's own
 * output; the JSON that wiki clients read is produced from these by the server.
 */

export const moduleGroups = ['list', 'prop', 'meta'] as const;
export const moduleGroupSchema = z.enum(moduleGroups);
export type ModuleGroup = z.infer<typeof moduleGroupSchema>;

/** MediaWiki's canonical order of user subtypes; paraminfo lists them in this order. */
export const userSubtypes = ['name', 'ip', 'temp', 'cidr', 'interwiki', 'id'] as const;
export const userSubtypeSchema = z.enum(userSubtypes);
export type UserSubtype = z.infer<typeof userSubtypeSchema>;

export const scalarTypes = [
  'string',
  'integer',
  'boolean',
  'timestamp',
  'namespace',
  'user',
  'limit',
  'title',
  // Only the API's frame modules (main, query) use it: values are names of other modules.
  'submodule',
] as const;
export const scalarTypeSchema = z.enum(scalarTypes);
export type ScalarType = z.infer<typeof scalarTypeSchema>;

/** A type name, or the allowed values of an enumeration (the empty string may be one). */
export const paramTypeSchema = z.union([scalarTypeSchema, z.array(z.string()).min(1)]);
export type ParamType = z.infer<typeof paramTypeSchema>;

export const infoMarkerSchema = z.strictObject({
  name: z.string().min(1),
  /** Mode numbers (deletedrevs). */
  values: z.array(z.number().int()).min(1).optional(),
});
export type InfoMarker = z.infer<typeof infoMarkerSchema>;

const paramFields = {
  /** Name without the module prefix; templated names hold `{var}`. */
  name: z.string().regex(/^[a-z0-9-]+(\{[a-z]+\}[a-z0-9-]*)?$/),
  type: paramTypeSchema,
  /** Raw default: integers stay integers; multi defaults are `|`-joined strings. */
  default: z.union([z.string(), z.number().int()]).optional(),
  multi: z.boolean().optional(),
  required: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  deprecatedValues: z.array(z.string()).optional(),
  allSpecifier: z.string().optional(),
  allowsDuplicates: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  extraNamespaces: z.array(z.number().int().negative()).optional(),
  subtypes: z.array(userSubtypeSchema).min(1).optional(),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  highmax: z.number().int().optional(),
  info: z.array(infoMarkerSchema).optional(),
  /** Templated parameters: template variable → the parameter whose values fill it. */
  templateVars: z.record(z.string(), z.string()).optional(),
  /** type `submodule`: value → module path. */
  submodules: z.record(z.string(), z.string()).optional(),
  /** type `submodule`: prefix put before the chosen module's own prefix (`g` for generator). */
  submoduleParamPrefix: z.string().optional(),
};

/** A parameter as the data files write it (its index is its position). */
export const paramInputSchema = z.strictObject(paramFields);
export type ParamInput = z.infer<typeof paramInputSchema>;

export const paramDescriptorSchema = z.strictObject({
  /** Position in the module, one counter shared by plain and templated parameters. */
  index: z.number().int().positive(),
  ...paramFields,
});
export type ParamDescriptor = z.infer<typeof paramDescriptorSchema>;

const moduleFields = {
  name: z.string().regex(/^[a-z0-9]+$/),
  /** Implementation class without namespace, e.g. `ApiQueryAllLinks`. */
  className: z.string().regex(/^Api[A-Za-z]+$/),
  prefix: z.string().regex(/^[a-z]*$/),
  generator: z.boolean(),
  deprecated: z.boolean(),
  readRights: z.boolean(),
  helpUrls: z.array(z.url()),
};

/** Any module of the API: the 64 query modules and the frame (main, query, paraminfo, json). */
export const apiModuleInputSchema = z.strictObject({
  ...moduleFields,
  path: z.string().regex(/^[a-z0-9]+(\+[a-z0-9]+)*$/),
  /** Group within the parent module; absent for main. */
  group: z.string().optional(),
  parameters: z.array(paramInputSchema),
});
export type ApiModuleInput = z.infer<typeof apiModuleInputSchema>;

export const apiModuleSchema = apiModuleInputSchema.extend({
  parameters: z.array(paramDescriptorSchema),
});
export type ApiModule = z.infer<typeof apiModuleSchema>;

/** A query module (list, prop or meta), as served by REST, tRPC and the pages. */
export const moduleDescriptorSchema = z.strictObject({
  ...moduleFields,
  path: z.string().regex(/^query\+[a-z0-9]+$/),
  group: moduleGroupSchema,
  parameters: z.array(paramDescriptorSchema),
});
export type ModuleDescriptor = z.infer<typeof moduleDescriptorSchema>;

/** A summary row of the module list. */
export const moduleSummarySchema = moduleDescriptorSchema
  .pick({ name: true, path: true, group: true, prefix: true, generator: true, deprecated: true, readRights: true })
  .extend({ parameterCount: z.number().int().nonnegative() });
export type ModuleSummary = z.infer<typeof moduleSummarySchema>;

/** Query-string booleans for the REST filters: `true`/`1`/`yes` or `false`/`0`/`no`. */
const filterBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])], {
    error: 'must be true or false',
  })
  .transform((v) => (typeof v === 'boolean' ? v : ['true', '1', 'yes'].includes(v)));

export const moduleFiltersSchema = z.strictObject({
  group: moduleGroupSchema.optional(),
  generator: filterBoolean.optional(),
  deprecated: filterBoolean.optional(),
  /** Free text over module names and parameter names (plain and prefixed). */
  q: z.string().max(200, { error: 'q is at most 200 characters' }).optional(),
});
export type ModuleFilters = z.input<typeof moduleFiltersSchema>;

export const moduleNameSchema = z.string().min(1).max(100);

export const formatVersionSchema = z.union([z.literal(1), z.literal(2)]);
export type FormatVersion = z.infer<typeof formatVersionSchema>;

export const paraminfoInputSchema = z.strictObject({
  /** Module paths as `action=paraminfo&modules=` takes them (`query+allpages`, `query+*`, `main`). */
  modules: z.array(z.string().max(200)).max(50, { error: 'at most 50 modules' }),
  formatversion: formatVersionSchema.default(1),
});
export type ParaminfoInput = z.input<typeof paraminfoInputSchema>;

/** Longest query string the validator reads; longer ones are refused before parsing. */
export const maxQueryLength = 65_536;

/** A wiki query: a query string (`action=query&list=allpages`) or its parameters as a record. */
export const validateInputSchema = z.union([
  z.string().max(maxQueryLength, { error: `the query string is at most ${maxQueryLength} characters` }),
  z
    .record(z.string().max(200), z.string().max(maxQueryLength))
    .refine((r) => Object.keys(r).length <= 1000, { error: 'at most 1000 parameters' }),
]);
export type ValidateInput = z.infer<typeof validateInputSchema>;

/** An error or warning, with MediaWiki's code and English text, and the module path it concerns. */
export const messageSchema = z.strictObject({
  code: z.string(),
  text: z.string(),
  module: z.string(),
});
export type CatalogueMessage = z.infer<typeof messageSchema>;

export const paramValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
  z.array(z.number()),
]);
export type ParamValue = z.infer<typeof paramValueSchema>;

export const validationResultSchema = z.strictObject({
  valid: z.boolean(),
  /** Normalized values per module path (`main`, `query`, `query+allpages`), by full parameter name. */
  parameters: z.record(z.string(), z.record(z.string(), paramValueSchema)),
  errors: z.array(messageSchema),
  warnings: z.array(messageSchema),
});
export type ValidationResult = z.infer<typeof validationResultSchema>;

/**
 * How a JSON Schema's keywords hold their values, for the walks that rewrite output and input
 * schemas (output-schema.ts, restated-keywords.ts, shared-definitions.ts): one list each, so the
 * walks agree on where a key is a field's name and where a value is data.
 */

/** Keywords whose value is data, never a schema. */
export const DATA_KEYWORDS: readonly string[] = ['enum', 'const', 'examples', 'default', 'required'];

/** Keywords whose value is a map of name -> subschema (its keys are names, not keywords). */
export const SCHEMA_MAPS: readonly string[] = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

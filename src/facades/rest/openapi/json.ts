/**
 * A node of the OpenAPI document as the generator hands it over and the post-processing edits it:
 * untyped JSON (trpc-to-openapi's output type does not cover the fields we add or rewrite).
 */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

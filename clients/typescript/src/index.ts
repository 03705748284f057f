export { AccommodationClient, type ClientOptions, type Result } from './client.js';
export { ApiError, type ApiErrorInit } from './errors.js';
export { isAccepted } from './jobs.js';
export type { FetchLike, RequestInitLike, ResponseLike } from './runtime.js';
export type * from './types.js';
/** The generated OpenAPI types themselves, for anything the named types above do not cover. */
export type { components, operations, paths } from './api.js';

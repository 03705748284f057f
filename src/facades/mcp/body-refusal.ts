import { requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ServiceError } from '../../domain/errors.js';
import { MAX_BODY_BYTES } from '../rest/request.js';

/** The implementation-defined server error the SDK's transport answers its HTTP refusals with. */
export const TRANSPORT_REFUSAL = -32000;

/** A JSON-RPC error answered with `status` and `id: null`: the request never became a message. */
export interface BodyRefusal {
  status: number;
  code: number;
  message: string;
}

/**
 * `/mcp` reads its body itself (REST's reader: its charsets, its 100 kB limit, its depth limit)
 * to pick the era, so a body it will not read is refused here, not by the SDK's transport. Clients
 * tell a transport refusal from a parse error by code, so these are the codes and words of the
 * SDK's own transport (webStandardStreamableHttp.js, SDK 1.32.2: 415 and 413 are -32000, a body
 * that is not JSON -32700), whichever era the client speaks.
 */
export function bodyRefusal(err: unknown): BodyRefusal {
  const failure = err instanceof ServiceError ? err : null;
  if (failure?.code === 'payload_too_large') return { status: 413, code: TRANSPORT_REFUSAL, message: requestBodyTooLargeMessage(MAX_BODY_BYTES) };
  if (failure?.code === 'unsupported_media_type') {
    // A JSON type in a charset the platform cannot decode is named as such; any other type gets the SDK's words.
    const why = failure.subCode === 'unsupported_charset' ? failure.message : 'Content-Type must be application/json';
    return { status: 415, code: TRANSPORT_REFUSAL, message: `Unsupported Media Type: ${why}` };
  }
  if (failure?.subCode === 'invalid_json' || !failure) return { status: 400, code: ErrorCode.ParseError, message: 'Parse error: Invalid JSON' };
  return { status: failure.status, code: ErrorCode.ParseError, message: `Parse error: ${failure.message}` };
}

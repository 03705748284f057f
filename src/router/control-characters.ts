import { ServiceError } from '../domain/errors.js';

/** C0 controls (NUL, ESC, newline, ...) and DEL: no field of any face takes them. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The dotted path of the first string (or object key) holding a control character, or null.
 * Depth-capped: inputs are small and already bounded in depth by the faces (json_too_deep).
 */
export function controlCharacterField(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return CONTROL.test(value) ? path || 'input' : null;
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = controlCharacterField(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (CONTROL.test(key)) return path || 'input';
    const found = controlCharacterField(v, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses input carrying control characters at the edge of every face (issue 23: a NUL byte
 * reached PostgreSQL, which refused it with a 500), with a 400 naming the field.
 */
export function refuseControlCharacters(input: unknown, prefix = ''): void {
  const field = controlCharacterField(input, prefix);
  if (field) throw new ServiceError('invalid_request', `${field} contains a control character (such as NUL or a line break); send printable text.`, { param: field });
}

/**
 * PostgreSQL's refusals of a value as text (a NUL byte or bytes not in the encoding: SQLSTATE
 * 22021, 22P05; a value not of the column's type: 22P02): bad input that slipped past a face,
 * never a fault of ours.
 */
const INVALID_TEXT_STATES = new Set(['22021', '22P05', '22P02']);

export function isInvalidText(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && INVALID_TEXT_STATES.has(code)) return true;
  }
  return false;
}

export function invalidText(): ServiceError {
  return new ServiceError('invalid_request', 'A value of this request is not valid text (a control character or an unreadable byte). Nothing was changed.');
}

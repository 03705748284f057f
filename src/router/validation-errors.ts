import { ServiceError, type ErrorCode } from '../domain/errors.js';
import type { SubCode } from '../domain/error-catalogue.js';

/** The parts of a zod 4 issue the mapper reads. */
export interface ZodLikeIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  params?: { apiCode?: ErrorCode; subCode?: SubCode };
}

const INTEGER_EXPECTED = new Set(['int', 'int32', 'uint32', 'safeint']);
const DECIMAL = /^[+-]?(\d+\.\d*|\.\d+)$/;

function bound(issue: ZodLikeIssue, param: string): string {
  const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' values' : '';
  if (issue.code === 'too_small') {
    if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${param} must not be empty.`;
    return `${param} must be at least ${issue.minimum}${unit}.`;
  }
  return `${param} must be at most ${issue.maximum}${unit}.`;
}

/**
 * A validation issue in the words a client understands, naming the parameter as it was sent
 * (`platforms`, never `platforms.0`): what the value must be, under a sub-code from the
 * catalogue instead of zod's internal issue code.
 */
export function describeIssue(issue: ZodLikeIssue, param: string, given: unknown): { subCode: SubCode; message: string } {
  // A list's items are counted from 1, as a reader counts them.
  const index = issue.path[1];
  const element = typeof index === 'number' ? ` (item ${index + 1})` : issue.path.length > 1 ? ` (${String(index as string)})` : '';
  switch (issue.code) {
    case 'invalid_type': {
      if (Array.isArray(given) && issue.expected !== 'array' && issue.path.length === 1) {
        return { subCode: 'repeated_parameter', message: `${param} takes one value; it was given ${given.length} times.` };
      }
      const decimalText = typeof given === 'string' && DECIMAL.test(given.trim());
      if (INTEGER_EXPECTED.has(issue.expected ?? '') || (issue.expected === 'number' && decimalText && issue.path.length === 1)) {
        return { subCode: 'not_integer', message: `${param} must be a whole number.` };
      }
      const expected = issue.expected === 'array' ? 'a list' : issue.expected === 'number' ? 'a number' : issue.expected === 'boolean' ? 'true or false' : `a ${issue.expected ?? 'value of another type'}`;
      return { subCode: 'invalid_type', message: `${param}${element} must be ${expected}.` };
    }
    case 'invalid_value':
      return { subCode: 'invalid_value', message: `${param}${element} must be one of: ${(issue.values ?? []).map(String).join(', ')}.` };
    case 'too_small':
    case 'too_big':
      return { subCode: 'out_of_range', message: bound(issue, `${param}${element}`) };
    case 'invalid_format':
      return { subCode: 'invalid_format', message: `${param}${element} ${issue.message}.` };
    default:
      return { subCode: issue.params?.subCode ?? 'invalid_format', message: `${param}${element} ${issue.message}.` };
  }
}

/** The first validation issue as the spec's error: codes carried by rules, else by field. */
export function fromValidation(issues: ZodLikeIssue[], rawInput?: unknown): ServiceError {
  const issue = issues[0]!;
  const top = issue.path[0];
  const given = rawInput && typeof rawInput === 'object' && top !== undefined ? (rawInput as Record<PropertyKey, unknown>)[top] : undefined;
  const param = top === undefined ? undefined : String(top);
  if (issue.params?.apiCode) return new ServiceError(issue.params.apiCode, issue.message, { subCode: issue.params.subCode, param });
  // zod 4 leaves `input` off issues: a field is missing when the raw input lacks it.
  if (param && issue.path.length === 1 && given === undefined && rawInput !== undefined && issue.code !== 'custom') {
    return new ServiceError('missing_parameter', `${param} is required.`, { param });
  }
  const { subCode, message } = describeIssue(issue, param ?? 'input', given);
  if (param === 'limit' && subCode !== 'repeated_parameter') {
    return new ServiceError('limit_out_of_range', 'limit must be a whole number from 1 to 100.', { param: 'limit' });
  }
  return new ServiceError('invalid_request', message, { subCode, param });
}

/** Plans and their request-rate limits (spec 8.1). Sandbox keys get the Free/Sandbox figure. */
export const PLAN_CODES = ['free', 'starter', 'pro', 'scale', 'enterprise'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];

export interface Plan {
  code: PlanCode;
  name: string;
  requestsPerMinute: number;
}

export const PLANS: Readonly<Record<PlanCode, Plan>> = {
  free: { code: 'free', name: 'Free', requestsPerMinute: 30 },
  starter: { code: 'starter', name: 'Starter', requestsPerMinute: 60 },
  pro: { code: 'pro', name: 'Pro', requestsPerMinute: 120 },
  scale: { code: 'scale', name: 'Scale', requestsPerMinute: 300 },
  // "Custom" in the spec: this is the default until an account carries its own figure.
  enterprise: { code: 'enterprise', name: 'Enterprise', requestsPerMinute: 1000 },
};

export const SANDBOX_REQUESTS_PER_MINUTE = 30;

export type KeyEnv = 'live' | 'sandbox';

/** The per-minute figure for a key: sandbox keys share the Free/Sandbox row whatever the plan. */
export function requestsPerMinute(plan: PlanCode, env: KeyEnv, accountOverride: number | null): number {
  if (env === 'sandbox') return SANDBOX_REQUESTS_PER_MINUTE;
  return accountOverride ?? PLANS[plan].requestsPerMinute;
}

export function isPlanCode(value: string): value is PlanCode {
  return (PLAN_CODES as readonly string[]).includes(value);
}

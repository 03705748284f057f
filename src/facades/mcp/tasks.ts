import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { ErrorCode, McpError, RELATED_TASK_META_KEY, type CallToolResult, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../deps.js';
import type { JobRecord } from '../../domain/ports/jobs.js';
import type { Principal } from '../../domain/ports/accounts.js';
import { JOB_ID, JOB_RETENTION_MS, pollAfterSeconds } from '../../router/jobs/jobs.js';
import { createContext } from '../../router/context.js';
import { waitForJob } from '../../router/retries/prefer-wait.js';
import { isFinished } from '../../router/jobs/job-answer.js';

/**
 * MCP Tasks (2025-11-25, experimental in SDK 1.32.2) over our async jobs: a task-augmented
 * tools/call always runs as a job, and the task IS the job (taskId = jobId). Stateless like the
 * rest of /mcp: tasks belong to the caller's account and key kind, not to a session, and any
 * process answers tasks/get and tasks/result from the job table.
 */
export function taskOf(job: JobRecord, now: Date): Task {
  const status = job.status === 'completed' ? 'completed' : job.status === 'failed' ? 'failed' : 'working';
  const message = (job.error as { message?: string } | null)?.message;
  return {
    taskId: job.id,
    status,
    ttl: JOB_RETENTION_MS,
    createdAt: job.createdAt.toISOString(),
    lastUpdatedAt: (job.finishedAt ?? job.startedAt ?? job.createdAt).toISOString(),
    ...(status === 'working' ? { pollInterval: pollAfterSeconds(job, now) * 1000 } : {}),
    ...(status === 'failed' && message ? { statusMessage: message } : {}),
  };
}

/** Only the worker moves a job on: a task cannot be written, cancelled or created from outside tools/call. */
function refuse(what: string): never {
  throw new McpError(ErrorCode.InvalidRequest, what);
}

/**
 * The task store of one principal's requests. `resultOf` turns a finished job into the tool result
 * the call would have answered at once (the same text, structuredContent or tool error).
 */
export function jobTaskStore(deps: Deps, principal: Principal, resultOf: (job: JobRecord) => CallToolResult): TaskStore {
  const find = (taskId: string) => findTask(deps, principal, taskId);
  return {
    createTask: async () => refuse('Tasks are created by tools/call with a task parameter.'),
    async getTask(taskId) {
      const job = await find(taskId);
      return job ? taskOf(job, deps.clock.now()) : null;
    },
    async getTaskResult(taskId) {
      const job = await find(taskId);
      if (!job || (job.status !== 'completed' && job.status !== 'failed')) throw new McpError(ErrorCode.InvalidParams, `Task not finished or not found: ${String(taskId).slice(0, 64)}`);
      return resultOf(job);
    },
    storeTaskResult: async () => refuse('Task results are stored by the job worker.'),
    // The job runs to its end and is billed as the call would be; this server offers no tasks/cancel.
    updateTaskStatus: async () => refuse('Tasks on this server cannot be cancelled or changed: the job runs to its end.'),
    listTasks: async () => refuse('This server does not list tasks; keep the taskId from tools/call.'),
  };
}

/**
 * The caller's job behind a task id, or null. Anything that is not a job id is an unknown task,
 * answered without asking the database; a database failure is logged and answered as an internal
 * error without its text (the SDK would send an error's message, SQL included, to the client).
 */
async function findTask(deps: Deps, principal: Principal, taskId: string): Promise<JobRecord | null> {
  if (typeof taskId !== 'string' || !JOB_ID.test(taskId)) return null;
  try {
    return await deps.jobs.find(taskId, { accountId: principal.accountId, keyEnv: principal.env }, deps.clock.now());
  } catch (err) {
    const requestId = deps.ids.requestId();
    deps.log.error({ requestId, err: err instanceof Error ? err.constructor.name : 'error' }, 'task lookup failed');
    throw new McpError(ErrorCode.InternalError, `The service could not read this task now; retry shortly (request ${requestId}).`);
  }
}

/**
 * How long tasks/result blocks in all before it answers "still working" (a JSON-RPC error the
 * client retries, or it polls tasks/get): a request never holds a socket for a job's whole life.
 */
const RESULT_WAIT_LIMIT_SECONDS = 120;

/** How long one wait of tasks/result lasts before it re-reads the job (the job's end event wakes it sooner). */
const RESULT_WAIT_SECONDS = 30;

/**
 * tasks/result: blocks until the job ends, woken by the job's end event in whichever process
 * ended it (as `Prefer: wait` is), instead of the SDK's default of re-reading the task at its
 * poll interval; then answers the tool result, tagged with its task.
 */
export function taskResultHandler(deps: Deps, principal: Principal, resultOf: (job: JobRecord) => CallToolResult) {
  return async (request: { params: { taskId: string } }, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
    const { taskId } = request.params;
    const ctx = { ...createContext(deps, { transport: 'mcp', authorization: null, clientAddress: undefined, signal: extra.signal }), principal };
    const until = Date.now() + RESULT_WAIT_LIMIT_SECONDS * 1000;
    for (;;) {
      const job = await findTask(deps, principal, taskId);
      if (!job) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${String(taskId).slice(0, 64)}`);
      if (isFinished(job)) {
        const result = resultOf(job);
        return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
      }
      if (extra.signal.aborted) throw new McpError(ErrorCode.InvalidRequest, 'Request cancelled');
      const left = (until - Date.now()) / 1000;
      if (left <= 0) throw new McpError(ErrorCode.InvalidRequest, `Task ${taskId} is still working after ${RESULT_WAIT_LIMIT_SECONDS} s of waiting; call tasks/result again, or poll tasks/get.`);
      // Without the event connection (null), wait one poll interval rather than spin.
      const waited = await waitForJob(ctx, taskId, Math.min(RESULT_WAIT_SECONDS, Math.ceil(left)));
      if (waited === null) await new Promise((resolve) => setTimeout(resolve, pollAfterSeconds(job, deps.clock.now()) * 1000));
    }
  };
}

import { isAccepted, jobError, waitForJob } from './jobs.js';
import type { TransportOptions } from './transport.js';

/** What paging reads of a listed answer; the methods' own types say the rest. */
interface Page {
  data: unknown;
  /** The compact view's short meta carries nextCursor alone. */
  meta: { pagination?: { nextCursor: string | null; hasMore: boolean } | null; nextCursor?: string };
}

/**
 * Every item of every page, in order: each page is asked for with the cursor of the one before,
 * until the service says there is no more. A page that went async is waited for.
 */
export async function* everyItem<Item>(o: TransportOptions, fetchPage: (cursor: string | undefined) => Promise<object>): AsyncGenerator<Item, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await settled(o, await fetchPage(cursor));
    for (const item of page.data as Item[]) yield item;
    const { pagination, nextCursor } = page.meta;
    cursor = (pagination?.hasMore ? pagination.nextCursor : null) ?? nextCursor ?? undefined;
  } while (cursor !== undefined);
}

async function settled(o: TransportOptions, answer: object): Promise<{ data: unknown[]; meta: Page['meta'] }> {
  if (!isAccepted(answer)) {
    const page = answer as Page;
    return { data: Array.isArray(page.data) ? page.data : [], meta: page.meta };
  }
  const job = await waitForJob(o, answer.data.jobId);
  if (job.data.status !== 'completed') throw jobError(job);
  return { data: (job.data.result as unknown[] | undefined) ?? [], meta: job.meta };
}

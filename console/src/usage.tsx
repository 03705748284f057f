import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api } from './api.js';

const COLOURS = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];
const DAY_S = 86_400;
const HEIGHT = 240;

type Split = 'operation' | 'platform';

/** 30 daily points per series, zero on days without charges. */
function seriesOf(since: string, rows: { day: string; key: string; credits: number }[]) {
  const start = Date.parse(`${since}T00:00:00Z`) / 1000;
  const days = Array.from({ length: 30 }, (_, i) => start + i * DAY_S);
  const index = new Map(days.map((t, i) => [new Date(t * 1000).toISOString().slice(0, 10), i]));
  const names = [...new Set(rows.map((r) => r.key))].sort();
  const values = names.map(() => days.map(() => 0));
  for (const r of rows) {
    const i = index.get(r.day);
    const line = values[names.indexOf(r.key)];
    if (i !== undefined && line) line[i] = (line[i] ?? 0) + r.credits;
  }
  return { days, names, values };
}

/** The sandbox calls' series: dashed grey, on a scale of its own (calls, not credits). */
/** Whole calls only on the calls' axis (uPlot would tick 0.5 for small counts). */
const CALL_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000];
const SANDBOX_SERIES = { label: 'sandbox calls', scale: 'calls', stroke: '#6b7280', dash: [6, 4], width: 2, points: { show: true, size: 4 } };

/**
 * Credits charged per day over 30 days, one line per operation or per platform, and the sandbox
 * calls per day as a dashed line on their own axis (uPlot: 50 kB, canvas, no dependencies, and
 * time series are all the console draws). Sandbox calls cost 0 credits, so the ledger has none:
 * their count is written by the service every few seconds.
 */
export function Usage() {
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => api.usage.query() });
  const [split, setSplit] = useState<Split>('operation');
  const box = useRef<HTMLDivElement>(null);

  const charged = (usage.data?.byOperation.length ?? 0) > 0;
  const sandboxTotal = usage.data?.sandboxCalls.reduce((sum, d) => sum + d.calls, 0) ?? 0;
  useEffect(() => {
    const el = box.current;
    if (!el || !usage.data || (!charged && sandboxTotal === 0)) return;
    const rows = split === 'operation' ? usage.data.byOperation.map((r) => ({ day: r.day, key: r.operation, credits: r.credits })) : usage.data.byPlatform.map((r) => ({ day: r.day, key: r.platform, credits: r.credits }));
    const { days, names, values } = seriesOf(usage.data.since, rows);
    const sandbox = sandboxTotal > 0 ? seriesOf(usage.data.since, usage.data.sandboxCalls.map((r) => ({ day: r.day, key: 'sandbox', credits: r.calls }))).values : [];
    const axes: uPlot.Axis[] = [{}];
    if (charged) axes.push({ label: 'credits', size: 60 });
    // Beside credits, the calls' axis goes on the right without a grid of its own; alone, on the left.
    if (sandbox.length) axes.push(charged ? { scale: 'calls', side: 1, label: 'sandbox calls', size: 60, incrs: CALL_STEPS, grid: { show: false } } : { scale: 'calls', label: 'sandbox calls', size: 60, incrs: CALL_STEPS });
    const plot = new uPlot(
      {
        width: Math.max(260, el.clientWidth),
        height: HEIGHT,
        series: [{}, ...names.map((name, i) => ({ label: name, stroke: COLOURS[i % COLOURS.length], width: 2, points: { show: true, size: 4 } })), ...(sandbox.length ? [SANDBOX_SERIES] : [])],
        axes,
        scales: { x: { time: true }, calls: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      },
      [days, ...values, ...sandbox],
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(260, el.clientWidth), height: HEIGHT });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [usage.data, split, charged, sandboxTotal]);

  const total = usage.data?.byOperation.reduce((sum, d) => sum + d.credits, 0) ?? 0;
  return (
    <section className="card" aria-labelledby="usage-title">
      <div className="row spread">
        <h2 id="usage-title">Usage, last 30 days</h2>
        <div className="toggle" role="group" aria-label="Split the chart by">
          {(['operation', 'platform'] as const).map((s) => (
            <button key={s} type="button" aria-pressed={split === s} onClick={() => setSplit(s)}>By {s}</button>
          ))}
        </div>
      </div>
      <p className="muted" data-testid="usage-total">{total.toLocaleString('en')} credits charged since {usage.data?.since ?? '…'}</p>
      {sandboxTotal > 0 && (
        <p className="muted" data-testid="usage-sandbox">
          {sandboxTotal.toLocaleString('en')} sandbox {sandboxTotal === 1 ? 'call' : 'calls'} answered (0 credits), the dashed line
        </p>
      )}
      {usage.data && !charged && sandboxTotal === 0 && (
        <p className="empty" data-testid="usage-empty">
          Nothing charged and no sandbox calls in the last 30 days. Calls with sandbox keys are free (0 credits): each one that answers is counted here per day, as a dashed line, within a few seconds. Once a live key's calls cost credits, a line per {split} will show them per day.
        </p>
      )}
      {usage.data && !charged && sandboxTotal > 0 && (
        <p className="muted" data-testid="usage-empty">Nothing charged: sandbox calls are free. Once a live key's calls cost credits, a line per {split} will show them per day.</p>
      )}
      <div ref={box} className="chart" data-testid="usage-chart" data-split={split} />
    </section>
  );
}

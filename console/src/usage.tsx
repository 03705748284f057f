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

/**
 * Credits charged per day over 30 days, one line per operation or per platform (uPlot: 50 kB,
 * canvas, no dependencies, and time series are all the console draws).
 */
export function Usage() {
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => api.usage.query() });
  const [split, setSplit] = useState<Split>('operation');
  const box = useRef<HTMLDivElement>(null);

  const charged = (usage.data?.byOperation.length ?? 0) > 0;
  useEffect(() => {
    const el = box.current;
    if (!el || !usage.data || !charged) return;
    const rows = split === 'operation' ? usage.data.byOperation.map((r) => ({ day: r.day, key: r.operation, credits: r.credits })) : usage.data.byPlatform.map((r) => ({ day: r.day, key: r.platform, credits: r.credits }));
    const { days, names, values } = seriesOf(usage.data.since, rows);
    const plot = new uPlot(
      {
        width: Math.max(260, el.clientWidth),
        height: HEIGHT,
        series: [{}, ...names.map((name, i) => ({ label: name, stroke: COLOURS[i % COLOURS.length], width: 2, points: { show: true, size: 4 } }))],
        axes: [{}, { label: 'credits', size: 60 }],
        scales: { x: { time: true } },
      },
      [days, ...values],
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(260, el.clientWidth), height: HEIGHT });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [usage.data, split, charged]);

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
      {usage.data && !charged && (
        <p className="empty" data-testid="usage-empty">
          Nothing charged in the last 30 days. Calls with sandbox keys are free (0 credits), so they draw no line here; once a live key's calls cost credits, a line per {split} will show them per day.
        </p>
      )}
      <div ref={box} className="chart" data-testid="usage-chart" data-split={split} />
    </section>
  );
}

import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api } from './api.js';

const COLOURS = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2', '#db2777'];
const DAY_S = 86_400;

/** Credits charged per day over 30 days, one line per operation (uPlot: small, canvas, no dependencies). */
export function Usage() {
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => api.usage.query() });
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el || !usage.data) return;
    const start = Date.parse(`${usage.data.since}T00:00:00Z`) / 1000;
    const days = Array.from({ length: 30 }, (_, i) => start + i * DAY_S);
    const operations = [...new Set(usage.data.days.map((d) => d.operation))].sort();
    const series = operations.map((op) => days.map((t) => usage.data.days.find((d) => d.operation === op && Date.parse(`${d.day}T00:00:00Z`) / 1000 === t)?.credits ?? 0));
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 240,
        series: [{}, ...operations.map((op, i) => ({ label: op, stroke: COLOURS[i % COLOURS.length], width: 2, points: { show: true } }))],
        axes: [{}, { label: 'credits' }],
        scales: { x: { time: true } },
      },
      [days, ...series],
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [usage.data]);

  const total = usage.data?.days.reduce((sum, d) => sum + d.credits, 0) ?? 0;
  return (
    <section className="card" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage, last 30 days</h2>
      <p className="muted" data-testid="usage-total">{total.toLocaleString('en')} credits charged since {usage.data?.since ?? '…'}</p>
      <div ref={box} className="chart" data-testid="usage-chart" />
    </section>
  );
}

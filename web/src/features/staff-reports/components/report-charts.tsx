import { ResponsiveBar } from '@nivo/bar';
import { ResponsivePie } from '@nivo/pie';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { applicationStatuses } from '../../../../../rules/application-values';
import { type Slice, pieSlices, statusColours } from '../utils/chart-data';
import { formatCount } from '../../../lib/staff-format';
import { AXIS_LABEL_GAP, fitAxisLabels } from '../utils/axis-labels';

// The charts of spec 2.4 with nivo (SVG). Each draws inside an aria-hidden box and has
// a visually hidden table with the same numbers: screen readers read the table. No
// animation (nothing moves, for prefers-reduced-motion and for speed). The table sits in
// a hidden box of its own: a table is never narrower than its words, and at 360 px it
// would widen the page although nobody sees it.

export const theme = {
  text: { fontFamily: 'inherit', fontSize: 12, fill: '#344054' },
  axis: { ticks: { text: { fontSize: 11, fill: '#475467' } }, legend: { text: { fontSize: 12, fill: '#344054' } } },
  grid: { line: { stroke: '#eaecf0' } },
};

export const PRIMARY = '#1d4ed8';
const palette = ['#1d4ed8', '#db2777', '#64748b', '#0d9488', '#b45309', '#7c3aed', '#475467'];
const EMPTY_COLOUR = '#e4e7ec';

interface Row {
  readonly label: string;
  readonly value: number;
}

export function TextTable({ caption, head, rows }: { caption: string; head: [string, string]; rows: readonly Row[] }) {
  return (
    <div className="visually-hidden">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head[0]}</th>
            <th scope="col">{head[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>{formatCount(r.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ChartCard({
  id,
  title,
  empty,
  children,
  table,
  legend,
  wide,
}: {
  id: string;
  title: string;
  empty: boolean;
  children: ReactNode;
  table: ReactNode;
  /** Under the chart, in HTML: it wraps at any width, where a legend inside the chart would cover the bars. */
  legend?: ReactNode;
  wide?: boolean;
}) {
  const { t } = useTranslation('staff');
  return (
    <section
      className={`report-card${wide ? ' report-card-wide' : ''}`}
      aria-labelledby={`${id}-title`}
      data-testid={`chart-${id}`}
    >
      <h2 className="report-card-title" id={`${id}-title`}>
        {title}
      </h2>
      {empty ? (
        <p className="report-empty" data-testid="no-data">
          {t('reports.noData')}
        </p>
      ) : (
        <>
          <div className="report-chart" aria-hidden="true">
            {children}
          </div>
          {legend}
          {table}
        </>
      )}
    </section>
  );
}

/** The widest a left-axis label is drawn: a longer one is shortened (utils/axis-labels.ts). */
const LABEL_MAX_WIDTH = 146;

interface TickProps {
  readonly value: string | number;
  readonly x: number;
  readonly y: number;
  readonly textX: number;
  readonly textY: number;
}

/** A tick of the left axis (ending at the axis, as nivo's): the label as fitted, the full label as its tooltip. */
function LabelTick({ tick, shown, full }: { tick: TickProps; shown: string; full: string }) {
  const { fontSize, fill } = theme.axis.ticks.text;
  return (
    <g transform={`translate(${tick.x},${tick.y})`}>
      <text x={tick.textX} y={tick.textY} textAnchor="end" dominantBaseline="central" style={{ fontSize, fill }}>
        <title>{full}</title>
        {shown}
      </text>
    </g>
  );
}

/** Renders again when a web font has loaded: labels measured in a fallback font may differ. */
function useRenderOnFontLoad(): void {
  const [, setFontLoads] = useState(0);
  useEffect(() => {
    const fonts = typeof document === 'undefined' ? undefined : document.fonts;
    const loaded = () => setFontLoads((n) => n + 1);
    fonts?.addEventListener('loadingdone', loaded);
    return () => fonts?.removeEventListener('loadingdone', loaded);
  }, []);
}

/** The widest a turned bottom-axis label is drawn (BarChart). */
const TURNED_LABEL_MAX_WIDTH = 110;

/**
 * The left axis of horizontal bars indexed by row number (`String(i)` of `labels`) or by
 * the label itself. nivo draws the labels right-aligned: one wider than the margin lost
 * its beginning at the card's edge. Each is fitted to at most LABEL_MAX_WIDTH px, and
 * `margin` is the room they take. Measured again when a web font arrives (the Tamil one
 * loads when Tamil letters first show): a label measured in a fallback font may differ.
 */
export function useLabelAxis(labels: readonly string[], indexedBy: 'rank' | 'label' = 'rank') {
  useRenderOnFontLoad();
  const { labels: shown, width } = fitAxisLabels(labels, LABEL_MAX_WIDTH);
  const at = (value: string | number) => (indexedBy === 'rank' ? Number(value) : labels.indexOf(String(value)));
  return {
    margin: width,
    axis: {
      tickSize: 0,
      tickPadding: 6,
      renderTick: (tick: TickProps) => (
        <LabelTick tick={tick} shown={shown[at(tick.value)] ?? ''} full={labels[at(tick.value)] ?? ''} />
      ),
    },
  };
}

/** A vertical bar per category. */
export function BarChart({
  id,
  title,
  data,
  valueLabel,
}: {
  id: string;
  title: string;
  data: readonly Row[];
  valueLabel: string;
}) {
  const { t } = useTranslation('staff');
  const rows = data.map((d) => ({ label: d.label, value: d.value }));
  // The labels turned by 45°: side by side, the age groups and a Tamil "Not given" ran
  // into each other on a phone. The margin holds the widest, shortened past 110 px.
  useRenderOnFontLoad();
  const labels = rows.map((r) => r.label);
  const { labels: shown, width } = fitAxisLabels(labels, TURNED_LABEL_MAX_WIDTH);
  const turnedHeight = Math.ceil((width - AXIS_LABEL_GAP) * Math.SQRT1_2);
  return (
    <ChartCard
      id={id}
      title={title}
      empty={!rows.some((r) => r.value > 0)}
      table={<TextTable caption={title} head={[t('reports.category'), valueLabel]} rows={rows} />}
    >
      <ResponsiveBar
        data={rows}
        keys={['value']}
        indexBy="label"
        margin={{ top: 10, right: 10, bottom: turnedHeight + 24, left: 48 }}
        padding={0.3}
        colors={[PRIMARY]}
        theme={theme}
        animate={false}
        enableLabel={false}
        axisLeft={{ tickSize: 0, tickPadding: 6, format: (v: number) => (Number.isInteger(v) ? formatCount(v) : '') }}
        axisBottom={{
          tickSize: 0,
          tickPadding: 8,
          tickRotation: -45,
          format: (v: string) => shown[labels.indexOf(v)] ?? v,
        }}
        valueFormat={(v) => formatCount(v)}
      />
    </ChartCard>
  );
}

/** A horizontal bar per category, the first at the top. */
export function HorizontalBarChart({
  id,
  title,
  data,
  valueLabel,
}: {
  id: string;
  title: string;
  data: readonly Row[];
  valueLabel: string;
}) {
  const { t } = useTranslation('staff');
  const labelAxis = useLabelAxis(
    data.map((d) => d.label),
    'label',
  );
  return (
    <ChartCard
      id={id}
      title={title}
      empty={!data.some((r) => r.value > 0)}
      table={<TextTable caption={title} head={[t('reports.district'), valueLabel]} rows={data} />}
    >
      <ResponsiveBar
        data={[...data].reverse().map((d) => ({ label: d.label, value: d.value }))}
        keys={['value']}
        indexBy="label"
        layout="horizontal"
        margin={{ top: 10, right: 16, bottom: 40, left: labelAxis.margin }}
        padding={0.25}
        colors={[PRIMARY]}
        theme={theme}
        animate={false}
        enableLabel={false}
        axisLeft={labelAxis.axis}
        axisBottom={{
          tickSize: 0,
          tickPadding: 8,
          legend: valueLabel,
          legendPosition: 'middle',
          legendOffset: 30,
          format: (v: number) => (Number.isInteger(v) ? formatCount(v) : ''),
        }}
        valueFormat={(v) => formatCount(v)}
      />
    </ChartCard>
  );
}

/** A ring; drawn even when every count is zero (an empty grey ring), with its legend. */
export function PieChart({
  id,
  title,
  data,
  colours,
}: {
  id: string;
  title: string;
  data: readonly (Slice & { label: string })[];
  colours: readonly string[];
}) {
  const { t } = useTranslation('staff');
  const colourOf = new Map(data.map((d, i) => [d.id, colours[i % colours.length]!]));
  const { slices, empty } = pieSlices(data);
  const drawn = slices.map((s) => ({
    id: s.id,
    value: s.value,
    label: data.find((d) => d.id === s.id)?.label ?? t('reports.noData'),
    color: colourOf.get(s.id) ?? EMPTY_COLOUR,
  }));
  return (
    <section className="report-card" aria-labelledby={`${id}-title`} data-testid={`chart-${id}`}>
      <h2 className="report-card-title" id={`${id}-title`}>
        {title}
      </h2>
      <div className="report-chart report-chart-pie" aria-hidden="true">
        <ResponsivePie
          data={drawn}
          margin={{ top: 12, right: 12, bottom: 12, left: 12 }}
          innerRadius={0.55}
          padAngle={empty ? 0 : 1}
          colors={{ datum: 'data.color' }}
          theme={theme}
          animate={false}
          enableArcLinkLabels={false}
          enableArcLabels={!empty}
          arcLabelsSkipAngle={18}
          arcLabelsTextColor="#ffffff"
          isInteractive={!empty}
          valueFormat={(v) => formatCount(v)}
        />
        {empty && <span className="report-pie-empty">{t('reports.noData')}</span>}
      </div>
      <ul className="report-legend" aria-hidden="true">
        {data.map((d) => (
          <li key={d.id}>
            <span className="report-legend-swatch" style={{ background: colourOf.get(d.id) }} />
            {d.label}: {formatCount(d.value)}
          </li>
        ))}
      </ul>
      <TextTable caption={title} head={[t('reports.category'), t('reports.applications')]} rows={data} />
    </section>
  );
}

export const pieColours = palette;
export const statusPieColours = applicationStatuses.map((s) => statusColours[s]);

import { ResponsiveBar } from '@nivo/bar';
import { ResponsiveLine } from '@nivo/line';
import { ResponsivePie } from '@nivo/pie';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { applicationStatuses } from '../../../../../rules/application-values';
import { type Slice, dayTicks, pieSlices, statusColours, type DayPoint, stackedDailyRows } from '../utils/chart-data';
import { formatCount, formatShortDay } from '../../../lib/staff-format';

// The charts of spec 2.4 with nivo (SVG). Each draws inside an aria-hidden box and has
// a visually hidden table with the same numbers: screen readers read the table. No
// animation (nothing moves, for prefers-reduced-motion and for speed). The table sits in
// a hidden box of its own: a table is never narrower than its words, and at 360 px it
// would widen the page although nobody sees it.

const theme = {
  text: { fontFamily: 'inherit', fontSize: 12, fill: '#344054' },
  axis: { ticks: { text: { fontSize: 11, fill: '#475467' } }, legend: { text: { fontSize: 12, fill: '#344054' } } },
  grid: { line: { stroke: '#eaecf0' } },
};

const PRIMARY = '#1d4ed8';
const palette = ['#1d4ed8', '#db2777', '#64748b', '#0d9488', '#b45309', '#7c3aed', '#475467'];
const EMPTY_COLOUR = '#e4e7ec';

/** A callback ref and the width of its element once laid out (0 before): how many day labels fit under a chart. */
function useWidth(): [(element: HTMLDivElement | null) => void, number] {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, width];
}

/** A day label every 72 px or so (ten at most): at 360 px they would run into each other. */
const fittingDayTicks = (days: readonly string[], width: number) =>
  dayTicks(days, width > 0 ? Math.min(10, Math.max(2, Math.floor((width - 64) / 72))) : 10);

/** Days along the bottom (as many as fit), whole counts up the side: the two charts over days. */
const dayAxes = (days: readonly string[], width: number, language: string) => ({
  axisBottom: {
    tickSize: 0,
    tickPadding: 8,
    tickValues: fittingDayTicks(days, width),
    format: (v: string) => formatShortDay(v, language),
  },
  axisLeft: { tickSize: 0, tickPadding: 6, format: (v: number) => (Number.isInteger(v) ? formatCount(v) : '') },
});

interface Row {
  readonly label: string;
  readonly value: number;
}

function TextTable({ caption, head, rows }: { caption: string; head: [string, string]; rows: readonly Row[] }) {
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

function ChartCard({
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
        margin={{ top: 10, right: 10, bottom: 40, left: 48 }}
        padding={0.3}
        colors={[PRIMARY]}
        theme={theme}
        animate={false}
        enableLabel={false}
        axisLeft={{ tickSize: 0, tickPadding: 6, format: (v: number) => (Number.isInteger(v) ? formatCount(v) : '') }}
        axisBottom={{ tickSize: 0, tickPadding: 8 }}
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
  const longest = Math.max(0, ...data.map((d) => d.label.length));
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
        // Room for the longest name: Tamil letters with their signs run wider than 7 px a character.
        margin={{ top: 10, right: 16, bottom: 40, left: Math.min(170, 24 + longest * 8) }}
        padding={0.25}
        colors={[PRIMARY]}
        theme={theme}
        animate={false}
        enableLabel={false}
        axisLeft={{ tickSize: 0, tickPadding: 6 }}
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

/** Submissions per day, one line. */
export function SubmissionsLine({ title, points }: { title: string; points: readonly DayPoint[] }) {
  const { t, i18n } = useTranslation('staff');
  const label = t('reports.submissions');
  const days = points.map((p) => p.day);
  const rows = points.map((p) => ({ label: formatShortDay(p.day, i18n.language), value: p.total }));
  const [box, width] = useWidth();
  return (
    <ChartCard
      id="by-day"
      title={title}
      wide
      empty={!points.some((p) => p.total > 0)}
      table={<TextTable caption={title} head={[t('reports.day'), label]} rows={rows} />}
    >
      <div ref={box} className="report-chart-fill">
        <ResponsiveLine
          data={[{ id: label, data: points.map((p) => ({ x: p.day, y: p.total })) }]}
          margin={{ top: 16, right: 24, bottom: 40, left: 48 }}
          xScale={{ type: 'point' }}
          yScale={{ type: 'linear', min: 0, max: 'auto' }}
          colors={[PRIMARY]}
          theme={theme}
          animate={false}
          pointSize={points.length > 60 ? 0 : 6}
          useMesh
          {...dayAxes(days, width, i18n.language)}
        />
      </div>
    </ChartCard>
  );
}

/** Submissions per day, stacked by status. */
export function DailyStatusBars({ title, points }: { title: string; points: readonly DayPoint[] }) {
  const { t, i18n } = useTranslation('staff');
  const days = points.map((p) => p.day);
  const [box, width] = useWidth();
  return (
    <ChartCard
      id="daily-status"
      title={title}
      wide
      empty={!points.some((p) => p.total > 0)}
      legend={
        <ul className="report-legend" aria-hidden="true">
          {applicationStatuses.map((s) => (
            <li key={s}>
              <span className="report-legend-swatch" style={{ background: statusColours[s] }} />
              {t(`status.${s}`)}
            </li>
          ))}
        </ul>
      }
      table={
        <div className="visually-hidden">
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('reports.day')}</th>
                {applicationStatuses.map((s) => (
                  <th scope="col" key={s}>
                    {t(`status.${s}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.day}>
                  <th scope="row">{formatShortDay(p.day, i18n.language)}</th>
                  {applicationStatuses.map((s) => (
                    <td key={s}>{formatCount(p.byStatus[s])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      }
    >
      <div ref={box} className="report-chart-fill">
        <ResponsiveBar
          data={stackedDailyRows(points)}
          keys={[...applicationStatuses]}
          indexBy="day"
          groupMode="stacked"
          margin={{ top: 16, right: 16, bottom: 40, left: 48 }}
          padding={0.2}
          colors={({ id }) => statusColours[id as keyof typeof statusColours]}
          theme={theme}
          animate={false}
          enableLabel={false}
          {...dayAxes(days, width, i18n.language)}
        />
      </div>
    </ChartCard>
  );
}

import { ResponsiveBar } from '@nivo/bar';
import { ResponsiveLine } from '@nivo/line';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { applicationStatuses } from '../../../../../rules/application-values';
import { dayTicks, type DayPoint, stackedDailyRows, statusColours } from '../utils/chart-data';
import { formatCount, formatShortDay } from '../../../lib/staff-format';
import { ChartCard, PRIMARY, TextTable, theme } from './report-charts';

// The two charts over days. A report may run to 400 days, and nivo draws an SVG element
// (with its spring, its handlers) for every point, bar and vertical grid line: 400 days
// drew some 2,000 of them, which took seconds on a slow phone. So the x grid follows the
// labelled days only, and past DENSE_DAYS no dots are drawn on the line and the daily
// status chart is a stepped stacked area (four shapes) instead of a bar per day and
// status: at that density a bar is a pixel or two wide, and the steps look the same.

/** More days than this: too many for a dot or a bar each. */
const DENSE_DAYS = 60;

interface DayChartProps {
  readonly title: string;
  readonly points: readonly DayPoint[];
}

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

/** Days along the bottom (as many as fit), whole counts up the side; grid lines at the labelled days only. */
function dayAxes(days: readonly string[], width: number, language: string) {
  const ticks = fittingDayTicks(days, width);
  return {
    axisBottom: { tickSize: 0, tickPadding: 8, tickValues: ticks, format: (v: string) => formatShortDay(v, language) },
    axisLeft: { tickSize: 0, tickPadding: 6, format: (v: number) => (Number.isInteger(v) ? formatCount(v) : '') },
    gridXValues: ticks,
  };
}

/** Submissions per day, one line. Memoised: the page redraws on every fetch's start and end. */
export const SubmissionsLine = memo(function SubmissionsLine({ title, points }: DayChartProps) {
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
          enablePoints={points.length <= DENSE_DAYS}
          pointSize={6}
          useMesh
          {...dayAxes(days, width, i18n.language)}
        />
      </div>
    </ChartCard>
  );
});

/** The four statuses stacked, a step per day: a long range's daily chart in four shapes. */
function DailyStatusSteps({ points, days, width }: { points: readonly DayPoint[]; days: string[]; width: number }) {
  const { t, i18n } = useTranslation('staff');
  return (
    <ResponsiveLine
      data={applicationStatuses.map((s) => ({
        id: t(`status.${s}`),
        colour: statusColours[s],
        data: points.map((p) => ({ x: p.day, y: p.byStatus[s] })),
      }))}
      margin={{ top: 16, right: 16, bottom: 40, left: 48 }}
      xScale={{ type: 'point' }}
      yScale={{ type: 'linear', min: 0, max: 'auto', stacked: true }}
      curve="step"
      enableArea
      areaOpacity={1}
      lineWidth={0}
      colors={(serie) => serie.colour}
      theme={theme}
      animate={false}
      enablePoints={false}
      useMesh
      {...dayAxes(days, width, i18n.language)}
    />
  );
}

/** Submissions per day, stacked by status (memoised, as the line). */
export const DailyStatusBars = memo(function DailyStatusBars({ title, points }: DayChartProps) {
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
        {points.length > DENSE_DAYS ? (
          <DailyStatusSteps points={points} days={days} width={width} />
        ) : (
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
        )}
      </div>
    </ChartCard>
  );
});

import { ResponsiveBar } from '@nivo/bar';
import { useTranslation } from '../../../i18n/use-translation';
import { formatCount } from '../../../lib/staff-format';
import { ChartCard, PRIMARY, theme, useLabelAxis } from './report-charts';
import { statusColours } from '../utils/chart-data';

/** One bar pair: a count and, beside it, how many of them were approved. */
export interface PairBar {
  readonly label: string;
  readonly applications: number;
  readonly approved: number;
}

/**
 * Two bars per row (issue 19): "Top campaigns" (a campaign's applications and how many
 * were approved) and "Top recruiters" (what a member's referral link brought and how
 * many of those were approved), the first row at the top; a hidden table says the same
 * numbers. `column` heads the rows, `counted` the first bar.
 */
export function PairBarsChart({
  id,
  title,
  column,
  counted,
  data,
}: {
  id: string;
  title: string;
  column: string;
  counted: string;
  data: readonly PairBar[];
}) {
  const { t } = useTranslation('staff');
  const labelAxis = useLabelAxis(data.map((d) => d.label));
  const applications = counted;
  const approved = t('reports.approvals');
  return (
    <ChartCard
      id={id}
      title={title}
      empty={!data.some((d) => d.applications > 0)}
      legend={
        <ul className="report-legend" aria-hidden="true">
          <li>
            <span className="report-legend-swatch" style={{ background: PRIMARY }} />
            {applications}
          </li>
          <li>
            <span className="report-legend-swatch" style={{ background: statusColours.approved }} />
            {approved}
          </li>
        </ul>
      }
      table={
        <div className="visually-hidden">
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{column}</th>
                <th scope="col">{applications}</th>
                <th scope="col">{approved}</th>
              </tr>
            </thead>
            <tbody>
              {data.map((d, i) => (
                <tr key={i}>
                  <th scope="row">{d.label}</th>
                  <td>{formatCount(d.applications)}</td>
                  <td>{formatCount(d.approved)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      }
    >
      <ResponsiveBar
        // nivo draws the first row at the bottom: the most is put last.
        // Rows keyed by their rank: two members may be shown under the same label.
        data={data.map((d, i) => ({ rank: String(i), applications: d.applications, approved: d.approved })).reverse()}
        keys={['applications', 'approved']}
        indexBy="rank"
        layout="horizontal"
        groupMode="grouped"
        margin={{ top: 10, right: 16, bottom: 40, left: labelAxis.margin }}
        padding={0.25}
        colors={[PRIMARY, statusColours.approved]}
        theme={theme}
        animate={false}
        enableLabel={false}
        axisLeft={labelAxis.axis}
        axisBottom={{
          tickSize: 0,
          tickPadding: 8,
          format: (v: number) => (Number.isInteger(v) ? formatCount(v) : ''),
        }}
        valueFormat={(v) => formatCount(v)}
      />
    </ChartCard>
  );
}

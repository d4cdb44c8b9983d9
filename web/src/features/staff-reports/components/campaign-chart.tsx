import { ResponsiveBar } from '@nivo/bar';
import { useTranslation } from '../../../i18n/use-translation';
import { formatCount } from '../../../lib/staff-format';
import { ChartCard, PRIMARY, theme } from './report-charts';
import { statusColours } from '../utils/chart-data';

interface CampaignBar {
  readonly label: string;
  readonly applications: number;
  readonly approved: number;
}

/**
 * "Top campaigns" (issue 19): per campaign, its applications and, beside them, how many
 * were approved, most applications at the top; a hidden table says the same numbers.
 */
export function TopCampaignsChart({ title, data }: { title: string; data: readonly CampaignBar[] }) {
  const { t } = useTranslation('staff');
  const longest = Math.max(0, ...data.map((d) => d.label.length));
  const applications = t('reports.applications');
  const approved = t('reports.approvals');
  return (
    <ChartCard
      id="campaigns"
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
                <th scope="col">{t('reports.campaignColumn')}</th>
                <th scope="col">{applications}</th>
                <th scope="col">{approved}</th>
              </tr>
            </thead>
            <tbody>
              {data.map((d) => (
                <tr key={d.label}>
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
        data={[...data].reverse().map((d) => ({ label: d.label, applications: d.applications, approved: d.approved }))}
        keys={['applications', 'approved']}
        indexBy="label"
        layout="horizontal"
        groupMode="grouped"
        margin={{ top: 10, right: 16, bottom: 40, left: Math.min(170, 24 + longest * 8) }}
        padding={0.25}
        colors={[PRIMARY, statusColours.approved]}
        theme={theme}
        animate={false}
        enableLabel={false}
        axisLeft={{ tickSize: 0, tickPadding: 6 }}
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

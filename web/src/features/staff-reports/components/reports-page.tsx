import './reports.css';
import { useTranslation } from '../../../i18n/use-translation';
import { Link } from 'react-router-dom';
import { Spinner } from '../../../components/spinner';
import { StaffScopeNote } from '../../../components/staff-scope-note';
import { errorText } from '../../../i18n/error-text';
import { staffPaths } from '../../../staff-paths';
import { useReportParams } from '../hooks/use-report-params';
import { useReportSummary } from '../hooks/use-report-summary';
import { ageData, genderData, memberData, seriesData, statusData, topDistrictData } from '../utils/chart-data';
import { useCampaigns } from '../../../lib/staff-campaigns';
import { ReportTiles, SourceCharts } from './report-sources';
import { districtLabel } from '../../../lib/staff-format';
import { reportProblem } from '../utils/report-params';
import { FilterPanel } from './filter-panel';
import { RawData } from './raw-data';
import { BarChart, HorizontalBarChart, PieChart, pieColours, statusPieColours } from './report-charts';
import { DailyStatusBars, SubmissionsLine } from './day-charts';

/** The Reports page (spec 2.4): filters in the URL, tiles and charts over every matching application. */
export function ReportsPage() {
  const { t, i18n } = useTranslation('staff');
  const { t: tc } = useTranslation();
  const { params, setParams } = useReportParams();
  // Filters the API would refuse (From after To) are said once, and nothing is asked.
  const problem = reportProblem(params);
  const summary = useReportSummary(problem ? null : params);
  const data = problem ? undefined : summary.data;
  const lang = i18n.language;
  const unknown = t('reports.unknown');
  const district = (name: string) => districtLabel(name, lang, unknown);
  const campaigns = useCampaigns();

  return (
    <div className="reports">
      <header className="reports-head">
        <div>
          <h1 className="page-title">{t('reports.title')}</h1>
          <p className="page-intro">{t('reports.subtitle')}</p>
          <StaffScopeNote />
        </div>
        <Link className="button button-secondary" to={staffPaths.dashboard.getHref()}>
          {t('reports.back')}
        </Link>
      </header>

      <FilterPanel params={params} onChange={setParams} campaigns={campaigns} />

      {problem && (
        <div className="alert alert-error report-error" role="alert" data-testid="report-error">
          {t(`reports.errors.${problem}`)}
        </div>
      )}

      {summary.error !== undefined && (
        <div className="alert alert-error report-error" role="alert" data-testid="report-error">
          {'field' in summary.error
            ? t(`reports.errors.${summary.error.field}`)
            : `${t('reports.failed')}. ${errorText(tc, summary.error.code)}`}
        </div>
      )}
      {!data && summary.loading && <Spinner label={t('reports.loading')} />}
      {data && (
        <div className="report-body" aria-busy={summary.loading} data-testid="report-body">
          {summary.loading && (
            <p className="report-updating muted" role="status">
              {t('reports.updating')}
            </p>
          )}
          <ReportTiles data={data} />
          <div className="report-grid">
            <BarChart
              id="age"
              title={t('reports.ageDistribution')}
              valueLabel={t('reports.applications')}
              data={ageData(data).map((d) => ({ label: d.id === 'Unknown' ? unknown : d.id, value: d.value }))}
            />
            <PieChart
              id="gender"
              title={t('reports.genderSplit')}
              colours={[pieColours[0]!, pieColours[1]!, pieColours[2]!]}
              data={genderData(data).map((d) => ({
                ...d,
                label: d.id === 'Male' ? t('reports.male') : d.id === 'Female' ? t('reports.female') : unknown,
              }))}
            />
            <HorizontalBarChart
              id="locations"
              title={t('reports.topLocations')}
              valueLabel={t('reports.applications')}
              data={topDistrictData(data).map((d) => ({ label: district(d.id), value: d.value }))}
            />
            <PieChart
              id="member"
              title={t('reports.partyMember')}
              colours={[pieColours[3]!, pieColours[2]!]}
              data={memberData(data).map((d) => ({ ...d, label: d.id === 'Yes' ? t('reports.yes') : t('reports.no') }))}
            />
            <SubmissionsLine title={t('reports.submissionsByDay')} points={seriesData(data)} />
            <HorizontalBarChart
              id="districts"
              title={t('reports.topDistricts')}
              valueLabel={t('reports.applications')}
              data={topDistrictData(data).map((d) => ({ label: district(d.id), value: d.value }))}
            />
            <PieChart
              id="status"
              title={t('reports.statusBreakdown')}
              colours={statusPieColours}
              data={statusData(data).map((d) => ({ ...d, label: t(`status.${d.id as 'pending'}`) }))}
            />
            <DailyStatusBars title={t('reports.dailyByStatus')} points={seriesData(data)} />
            <SourceCharts data={data} campaigns={campaigns} />
          </div>
        </div>
      )}
      {!problem && <RawData params={params} />}
    </div>
  );
}

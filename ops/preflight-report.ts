import type { ConfigFinding, FindingSeverity } from '../contracts/config-findings';
import type { StageConfig } from '../lib/stages';

// What the preflight found, and how it prints: every finding says what is wrong, why it
// matters and the exact fix; a note is something the operator must do or know that is
// not a fault (a stage not deployed yet, a check only a person can make).

export type PreflightSeverity = FindingSeverity | 'note';

export interface PreflightFinding extends Omit<ConfigFinding, 'severity'> {
  readonly severity: PreflightSeverity;
}

export class PreflightReport {
  readonly findings: PreflightFinding[] = [];
  /** One line per check that answered as it should: the operator sees what was looked at. */
  readonly passed: string[] = [];

  add(...findings: readonly PreflightFinding[]): void {
    this.findings.push(...findings);
  }

  pass(line: string): void {
    this.passed.push(line);
  }

  count(severity: PreflightSeverity): number {
    return this.findings.filter((f) => f.severity === severity).length;
  }

  /** Non-zero when the stage would not serve visitors, or its alarms would reach nobody. */
  get exitCode(): number {
    return this.count('blocking') > 0 ? 1 : 0;
  }
}

const labels: Record<PreflightSeverity, string> = { blocking: 'BLOCKING', warning: 'WARNING ', note: 'NOTE    ' };
const order: readonly PreflightSeverity[] = ['blocking', 'warning', 'note'];
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function formatReport(config: Pick<StageConfig, 'stage' | 'region' | 'waf'>, report: PreflightReport): string {
  const regions = config.waf.enabled ? `${config.region}, and us-east-1 for the firewall` : config.region;
  const lines = [`Preflight of stage ${config.stage} (${regions})`, ''];
  for (const severity of order) {
    for (const finding of report.findings.filter((f) => f.severity === severity)) {
      lines.push(
        `${labels[severity]}  ${finding.id}`,
        `  What: ${finding.problem}`,
        `  Why:  ${finding.why}`,
        `  Fix:  ${finding.fix}`,
        '',
      );
    }
  }
  if (report.passed.length > 0) {
    lines.push('Checked and fine:', ...report.passed.map((line) => `  ok  ${line}`), '');
  }
  const blocking = report.count('blocking');
  lines.push(
    `Summary: ${plural(blocking, 'blocking finding')}, ${plural(report.count('warning'), 'warning')}, ` +
      `${plural(report.count('note'), 'note')}, ${plural(report.passed.length, 'check')} passed.`,
    blocking > 0
      ? `Stage ${config.stage} is not ready: it would not serve visitors, or its alarms would reach nobody. Fix the blocking findings, then run \`npm run preflight -- --stage ${config.stage}\` again.`
      : `Nothing blocks stage ${config.stage}${report.count('warning') > 0 ? ': read the warnings before a rally' : ''}.`,
  );
  return `${lines.join('\n')}\n`;
}

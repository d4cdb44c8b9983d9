import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerSecretKeys } from '../../lib/constructs/app-secrets';
import { addMembershipStacks } from '../../lib/constructs/membership-stacks';
import { projectRoot } from '../../lib/constructs/project-function';
import { stackNames } from '../../contracts/stack-names';
import { loadStageConfig, stageConfigSchema, stageNames } from '../../lib/stages';

// Issue 15: the instructions name only things that exist. README.md and docs/*.md are read
// as an operator reads them, and every stack, stack output, stage setting, npm script and
// stage they name is looked up in the code: the stack names in contracts/stack-names.ts (Edge
// only where the stage has `waf.enabled`) and in one synthesis of prod (bundling skipped),
// the outputs in that synthesis, the settings in `stageConfigSchema`, the scripts in
// package.json. What counts as a mention of each is written beside its rule below.

/** A markdown file as the operator reads it: its path from the project root and its text. */
interface Doc {
  readonly file: string;
  readonly text: string;
}

/** What the code has, for the docs to be checked against. */
interface Facts {
  readonly stages: readonly string[];
  /** Every stack name of every stage: `Membership-<stage>-<Part>`. */
  readonly stacks: ReadonlySet<string>;
  /** Outputs by stack part (`Data`, `App`, `Edge`), as prod synthesizes them. */
  readonly outputs: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every path of `stageConfigSchema`, dotted; `*` stands for any key of a record. */
  readonly settings: readonly string[];
  readonly scripts: ReadonlySet<string>;
  readonly secretKeys: ReadonlySet<string>;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every dotted path of a zod (v4) schema, through optional, default, pipe, record and union wrappers. */
/** The paths of a valibot schema inside the stage schema (lib/stages.ts, checkedBy). */
function valibotPaths(schema: unknown, prefix: readonly string[], out: string[]): string[] {
  const s = schema as { type?: string; entries?: Record<string, unknown>; wrapped?: unknown; pipe?: unknown[] };
  if (s.type === 'object' && s.entries) {
    for (const [key, field] of Object.entries(s.entries)) {
      out.push([...prefix, key].join('.'));
      valibotPaths(field, [...prefix, key], out);
    }
  } else if (s.wrapped) {
    valibotPaths(s.wrapped, prefix, out);
  } else if (s.type === 'pipe' && s.pipe) {
    valibotPaths(s.pipe[0], prefix, out);
  }
  return out;
}

function schemaPaths(schema: z.core.$ZodType, prefix: readonly string[] = [], out: string[] = []): string[] {
  const checkedBy = z.globalRegistry.get(schema)?.valibot;
  if (checkedBy) return valibotPaths(checkedBy, prefix, out);
  const def = schema._zod.def as unknown as {
    type: string;
    shape?: Record<string, z.core.$ZodType>;
    innerType?: z.core.$ZodType;
    in?: z.core.$ZodType;
    valueType?: z.core.$ZodType;
    options?: readonly z.core.$ZodType[];
  };
  if (def.type === 'object' && def.shape) {
    for (const [key, field] of Object.entries(def.shape)) {
      out.push([...prefix, key].join('.'));
      schemaPaths(field, [...prefix, key], out);
    }
  } else if (def.innerType) {
    schemaPaths(def.innerType, prefix, out);
  } else if (def.type === 'pipe' && def.in) {
    schemaPaths(def.in, prefix, out);
  } else if (def.type === 'record' && def.valueType) {
    out.push([...prefix, '*'].join('.'));
    schemaPaths(def.valueType, [...prefix, '*'], out);
  } else if (def.type === 'union' && def.options) {
    for (const option of def.options) schemaPaths(option, prefix, out);
  }
  return out;
}

const segmentsMatch = (pattern: readonly string[], segments: readonly string[]) =>
  pattern.length === segments.length && pattern.every((p, i) => p === '*' || p === segments[i]);

/** A placeholder, not a name: `<stage>`, `$STAGE`, `${STAGE}`, `NAME`. */
const isPlaceholder = (value: string) => /^(<[^>]+>|\$\{?[A-Za-z_0-9]+\}?|[A-Z][A-Z_]*)$/.test(value);

/**
 * Every mention in the docs of something the code lacks, as `file:line: problem`. Empty when
 * the docs name only what exists.
 */
function findProblems(docs: readonly Doc[], facts: Facts): string[] {
  const problems: string[] = [];
  const report = (doc: Doc, index: number, problem: string) =>
    problems.push(`${doc.file}:${lineOf(doc.text, index)}: ${problem}`);

  const settingPaths = facts.settings.map((p) => p.split('.'));
  const rootFields = new Set(settingPaths.filter((p) => p.length === 1).map((p) => p[0]!));
  // Top-level settings that hold fields of their own: `captcha`, `waf`, `messaging`...
  const objectRoots = [...rootFields].filter((root) => settingPaths.some((p) => p.length > 1 && p[0] === root));
  const fieldNames = new Set(settingPaths.flat());
  const allOutputs = new Set([...facts.outputs.values()].flatMap((keys) => [...keys]));
  const stackParts = new Set([...facts.outputs.keys()]);
  const stackMatches = (stage: string, part: string) =>
    isPlaceholder(stage)
      ? facts.stages.some((s) => facts.stacks.has(`Membership-${s}-${part}`))
      : facts.stacks.has(`Membership-${stage}-${part}`);

  for (const doc of docs) {
    const { text } = doc;

    // Stack names: `Membership-<stage>-<Part>`, the stage a stage name or a placeholder
    // (`<stage>`, `$STAGE`). A literal stage must have that stack; a placeholder must have
    // it in at least one stage (`Membership-<stage>-Edge`: the stages with the firewall).
    // A part that is itself a placeholder (`Membership-$STAGE-$1` in the `out` helper) is
    // no name.
    for (const m of text.matchAll(/\bMembership-(<[^>\s]+>|\$\{?[A-Za-z_0-9]+\}?|[A-Za-z0-9]+)-([A-Za-z0-9$<>{}]+)/g)) {
      const [name, stage, part] = [m[0], m[1]!, m[2]!];
      if (isPlaceholder(part)) continue;
      if (!stackMatches(stage, part)) report(doc, m.index, `${name} is no stack of any stage`);
    }

    // Stack outputs, named in three ways: the runbook's shell helper `out <Part> <Key>`;
    // a backticked name followed by the word "output(s)" or listed after "Outputs:"; and an
    // angle-bracket placeholder of a command named like an output (`<ProviderSecretArn>`:
    // a PascalCase name ending in Arn, Id, Url or Name).
    for (const m of text.matchAll(/\bout ([A-Z][A-Za-z]*) ([A-Za-z0-9]+)\b/g)) {
      const [part, key] = [m[1]!, m[2]!];
      if (!stackParts.has(part)) report(doc, m.index, `out ${part}: no stack part ${part}`);
      else if (!facts.outputs.get(part)!.has(key)) report(doc, m.index, `${key} is no output of the ${part} stack`);
    }
    const outputMentions = [
      ...[...text.matchAll(/`([A-Z][A-Za-z0-9]+)` outputs?\b/g)].map((m) => ({ key: m[1]!, index: m.index })),
      ...[...text.matchAll(/<([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)*(?:Arn|Id|Url|Name))>/g)].map((m) => ({
        key: m[1]!,
        index: m.index,
      })),
      ...[...text.matchAll(/^Outputs:[\s\S]*?(?=\n\s*\n|$)/gm)].flatMap((list) =>
        [...list[0].matchAll(/`([A-Z][A-Za-z0-9]+)`/g)].map((m) => ({ key: m[1]!, index: list.index + m.index })),
      ),
    ];
    for (const { key, index } of outputMentions) {
      if (!allOutputs.has(key)) report(doc, index, `${key} is no output of any stack`);
    }

    // Stage settings: a backticked code span that starts with a dotted path of lowerCamel
    // identifiers (the span may go on with `: value`, ` = value` or words after a space:
    // `waf.enabled: false`).
    // - Its first segment a top-level setting (`captcha`, `alarmEmail`...): the whole path
    //   must be a path of the schema (`captcha.siteKey`).
    // - One word that starts with a top-level setting holding fields, then a capital
    //   (`captchaSiteKey`), and is no field name itself nor a key of the provider secret
    //   (`whatsappToken`): a path written without its dots, always wrong.
    // - Several segments, the first a field of a nested setting (`decisionNotices.enabled`):
    //   the tail of a path of the schema, written relative to its parent.
    // Anything else (`index.html`, `process.env`, `kind`) names no setting.
    for (const m of text.matchAll(/`([^`\n]+)`/g)) {
      const lead = /^([a-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*)(?=$|[:= ])/.exec(m[1]!);
      if (!lead) continue;
      const field = lead[1]!;
      const segments = field.split('.');
      const first = segments[0]!;
      if (rootFields.has(first)) {
        if (!settingPaths.some((p) => segmentsMatch(p, segments))) {
          report(doc, m.index, `${field} is no stage setting (lib/stages.ts, stageConfigSchema)`);
        }
      } else if (segments.length === 1) {
        if (fieldNames.has(field) || facts.secretKeys.has(field)) continue;
        const root = objectRoots.find((r) => field.startsWith(r) && /[A-Z]/.test(field[r.length] ?? ''));
        if (root) report(doc, m.index, `${field} is no stage setting: a path of ${root} is written ${root}.<field>`);
      } else if (fieldNames.has(first)) {
        const tails = settingPaths.filter((p) => segmentsMatch(p.slice(-segments.length), segments));
        if (tails.length === 0) report(doc, m.index, `${field} is the end of no stage setting's path`);
      }
    }

    // The provider secret's fields, as the health route and the preflight name them.
    for (const m of text.matchAll(/\bsecret:provider\.([A-Za-z0-9]+)/g)) {
      if (!facts.secretKeys.has(m[1]!)) report(doc, m.index, `${m[1]} is no key of the provider secret`);
    }

    // `npm run <script>`: a script of package.json; `<name>` in it stands for any run of
    // letters (`npm run test:<tier>`), and at least one script must fit.
    for (const m of text.matchAll(/\bnpm run ([A-Za-z0-9:_<>|.-]+)/g)) {
      const script = m[1]!.replace(/[.:]+$/, '');
      const pattern = new RegExp(`^${script.replace(/<[^>]+>/g, '[A-Za-z0-9-]+').replace(/[.|]/g, '\\$&')}$`);
      if (![...facts.scripts].some((s) => pattern.test(s))) {
        report(doc, m.index, `npm run ${script}: no such script in package.json`);
      }
    }

    // The stage of `-c stage=<x>` (the CDK app) and of `--stage <x>` (the operator
    // commands): a stage name, a placeholder, or `<a|b>` where each alternative is a stage.
    for (const m of text.matchAll(/(?:-c stage=|--stage )([^\s`'"),;\]]*)/g)) {
      const value = m[1]!;
      if (value === '') continue;
      const alternatives = /^<.*\|.*>$/.test(value) ? value.slice(1, -1).split('|') : [value];
      for (const stage of alternatives) {
        if (!isPlaceholder(stage) && !facts.stages.includes(stage)) {
          report(doc, m.index, `stage ${stage} is no stage (${facts.stages.join(', ')})`);
        }
      }
    }
  }
  return problems;
}

let workDir: string;
let facts: Facts;
let synthesized: string[];
const prod = loadStageConfig('prod');

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'membership-docs-'));
  const web = path.join(workDir, 'web');
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>test</title>');
  const app = new App({ outdir: path.join(workDir, 'cdk.out'), context: { 'aws:cdk:bundling-stacks': [] } });
  addMembershipStacks(app, prod, web);
  const assembly = app.synth();
  synthesized = assembly.stacks.map((s) => s.stackName);

  const prefix = `Membership-${prod.stage}-`;
  const outputs = new Map<string, Set<string>>();
  for (const stack of assembly.stacks) {
    const template = stack.template as { Outputs?: Record<string, unknown> };
    outputs.set(stack.stackName.slice(prefix.length), new Set(Object.keys(template.Outputs ?? {})));
  }
  const stacks = new Set<string>();
  for (const stage of stageNames) {
    const config = loadStageConfig(stage);
    const names = stackNames(config);
    stacks.add(names.data).add(names.app);
    if (config.waf.enabled) stacks.add(names.edge);
  }
  const packageJson = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  facts = {
    stages: stageNames,
    stacks,
    outputs,
    settings: schemaPaths(stageConfigSchema),
    scripts: new Set(Object.keys(packageJson.scripts)),
    secretKeys: new Set<string>(providerSecretKeys),
  };
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const readDocs = (): Doc[] =>
  [
    'README.md',
    ...readdirSync(path.join(projectRoot, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ].map((file) => ({ file, text: readFileSync(path.join(projectRoot, file), 'utf8') }));

describe('what the instructions name exists (README.md, docs/*.md)', () => {
  it('knows the stacks the app synthesizes: prod has Data, App and Edge, as stackNames and waf.enabled say', () => {
    const names = stackNames(prod);
    expect(prod.waf.enabled).toBe(true);
    expect([...synthesized].sort()).toEqual([names.app, names.data, names.edge].sort());
    for (const name of synthesized) expect(facts.stacks.has(name), name).toBe(true);
    // The settings walk reached the nested ones, or the rules below would check nothing.
    expect(facts.settings).toEqual(
      expect.arrayContaining(['captcha.siteKey', 'waf.enabled', 'messaging.sms.entityId', 'alarmEmail']),
    );
  });

  it('names only stacks, outputs, settings, scripts and stages that exist', () => {
    const docs = readDocs();
    expect(docs.map((d) => d.file)).toEqual(expect.arrayContaining(['README.md', 'docs/RUNBOOK.md']));
    expect(findProblems(docs, facts)).toEqual([]);
  });

  it('catches each kind of wrong name (the rules can fail)', () => {
    const wrong = [
      'set `captchaSiteKey` for the stage',
      'set `captcha.siteKee` for the stage',
      '`decisionNotices.enable`',
      'npx cdk destroy Membership-<stage>-Edeg',
      'npx cdk deploy --exclusively Membership-$STAGE-Dat',
      'Membership-dev-Edge',
      'Membership-prd-App',
      'out Data ApiUrl',
      'out Api SiteUrl',
      'the `ProviderSecretARN` output',
      '--user-pool-id <UserPoolIdentifierId>',
      '`secret:provider.recaptchaKey`',
      'npm run preflite -- --stage prod',
      'npm run test:<tier>x',
      'npx cdk deploy --all -c stage=production',
      'npm run staff -- list --stage stagin',
      'cdk deploy -c stage=<dev|qa>',
    ];
    for (const line of wrong) {
      expect(findProblems([{ file: 'wrong.md', text: line }], facts), line).toHaveLength(1);
    }
    const right = [
      'set `captcha.siteKey`, `waf.enabled: false`, `messaging.sms.entityId`, `alarmEmail` and `whatsapp.welcomeVideoUrl`',
      '`decisionNotices.enabled`, `templates.otp.en`, `api.routeThrottles`, `whatsappToken`, `index.html`',
      'npx cdk destroy Membership-<stage>-Edge; Membership-prod-Edge; Membership-$STAGE-App; "Membership-$STAGE-$1"',
      'out Data UserPoolId, out App ApiUrl; the `ProviderSecretArn` output; <SiteUrl>/admin',
      'Outputs: `SiteUrl`, `ApiUrl`,\n`SmsEventsTopicArn`, queue URLs.',
      '`secret:provider.recaptchaSecret`; npm run test:<tier>; `npm run dlq:redrive`.',
      'npx cdk deploy --all -c stage=<stage>; -c stage=$STAGE; --stage NAME; -c stage=<dev|staging|prod>',
    ];
    for (const line of right) expect(findProblems([{ file: 'right.md', text: line }], facts), line).toEqual([]);
  });
});

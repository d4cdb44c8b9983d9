/**
 * Stack names carry the stage, so that every stage deploys independently. A module of its
 * own: the preflight, the docs test and the health function's findings name stacks without
 * loading the CDK.
 */
export function stackNames(config: { readonly stage: string }): { data: string; app: string; edge: string } {
  return {
    data: `Membership-${config.stage}-Data`,
    app: `Membership-${config.stage}-App`,
    edge: `Membership-${config.stage}-Edge`,
  };
}

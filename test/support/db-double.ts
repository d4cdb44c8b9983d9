import { AwsServiceError, type Db, type DbCommand } from '../../lambdas/lib/db';

// A stand-in for the functions' DynamoDB client (lambdas/lib/db.ts) in unit tests, for
// the answers DynamoDB Local never gives (a TransactionConflict, a throttle, a lost
// race at one exact moment), in the manner of aws-sdk-client-mock:
// `double.on(UpdateCommand).rejectsOnce(error).resolves({})`, `double.commandCalls(UpdateCommand)`.
// A command nobody set an answer for resolves to `{}`, as aws-sdk-client-mock's do.

type CommandClass<I extends object, O extends object> = new (input: I) => DbCommand<I, O>;
/** A command's class, as its instances' `constructor`. */
type AnyClass = abstract new (...args: never[]) => unknown;
type Answer =
  { readonly kind: 'resolve'; readonly value: object } | { readonly kind: 'reject'; readonly error: unknown };

interface Behaviour<O extends object> {
  resolves(value: Partial<O>): Behaviour<O>;
  resolvesOnce(value: Partial<O>): Behaviour<O>;
  rejects(error: unknown): Behaviour<O>;
  rejectsOnce(error: unknown): Behaviour<O>;
}

export interface DbDouble {
  readonly db: Db;
  on<I extends object, O extends object>(command: CommandClass<I, O>): Behaviour<O>;
  /** The commands of that class sent so far, as `{ args: [command] }` (aws-sdk-client-mock's shape). */
  commandCalls<I extends object, O extends object>(
    command: CommandClass<I, O>,
  ): { readonly args: readonly [DbCommand<I, O>] }[];
  reset(): void;
}

/** An error as DynamoDB would answer it (`name` its type, with the answer's other fields). */
export function serviceError(name: string, fields: object = {}, status = 400): AwsServiceError {
  return new AwsServiceError(name, `${name} (test double)`, status, 1, fields);
}

export function dbDouble(): DbDouble {
  const once = new Map<AnyClass, Answer[]>();
  const always = new Map<AnyClass, Answer>();
  let calls: DbCommand<object, object>[] = [];

  const db: Db = {
    async send<I extends object, O extends object>(command: DbCommand<I, O>): Promise<O> {
      calls.push(command as unknown as DbCommand<object, object>);
      const answer = once.get(command.constructor as AnyClass)?.shift() ?? always.get(command.constructor as AnyClass);
      if (answer?.kind === 'reject') throw answer.error;
      return (answer?.value ?? {}) as O;
    },
    intercept() {
      throw new Error('The test double runs no interceptors');
    },
  };

  const behaviour = <O extends object>(type: AnyClass): Behaviour<O> => {
    const queue = () => once.get(type) ?? once.set(type, []).get(type)!;
    const self: Behaviour<O> = {
      resolves: (value) => (always.set(type, { kind: 'resolve', value }), self),
      resolvesOnce: (value) => (queue().push({ kind: 'resolve', value }), self),
      rejects: (error) => (always.set(type, { kind: 'reject', error }), self),
      rejectsOnce: (error) => (queue().push({ kind: 'reject', error }), self),
    };
    return self;
  };

  return {
    db,
    on: (type) => behaviour(type),
    commandCalls: <I extends object, O extends object>(type: CommandClass<I, O>) =>
      calls.filter((c) => c.constructor === type).map((c) => ({ args: [c as unknown as DbCommand<I, O>] as const })),
    reset() {
      once.clear();
      always.clear();
      calls = [];
    },
  };
}

import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  TransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type AwsJsonCall, type AwsJsonOptions, AwsServiceError, awsJson } from './aws-json';

// The functions' DynamoDB client: the document client's commands (`db.send(new GetCommand(…))`,
// with @aws-sdk/lib-dynamodb's names and input and output types, plain JavaScript values in
// and out) sent over lambdas/lib/aws-json.ts instead of the SDK's client, for a cold start
// a fraction of the SDK's (issue 16). Values are converted by @aws-sdk/util-dynamodb, the
// SDK's own marshaller, with `removeUndefinedValues` as the functions' document client had.
//
// Errors keep the SDK's names and fields: `isConditionFailed(error)` and
// `isTransactionCanceled(error)` (with its `CancellationReasons`, whose `Item`s stay in
// DynamoDB's JSON as the SDK left them) replace `instanceof` on the SDK's exception classes.

type Item = Record<string, unknown>;
type Wire = Record<string, unknown>;
/** The SDK's output types; `$metadata` is always empty here. */
type Output<T> = T;

/** A command: the operation's name, its input, and how its input and output are converted. */
export abstract class DbCommand<I extends object, O extends object> {
  abstract readonly operation: string;
  constructor(readonly input: I) {}
  abstract readonly toWire: (input: I) => Wire;
  abstract readonly fromWire: (output: Wire) => O;
}

const toAttrs = (item: unknown) =>
  item === undefined
    ? undefined
    : marshall(item as Item, { removeUndefinedValues: true, convertClassInstanceToMap: true });
const fromAttrs = (attrs: unknown) => (attrs === undefined ? undefined : unmarshall(attrs as never));
const mapItems = (items: unknown) => (items as Wire[] | undefined)?.map((item) => fromAttrs(item));

/** Replaces the named fields of an object with their converted values, leaving the rest. */
function convert(object: object | undefined, fields: readonly string[], how: (value: unknown) => unknown): Wire {
  const out: Wire = { ...(object as Wire) };
  for (const field of fields) if (out[field] !== undefined) out[field] = how(out[field]);
  return out;
}

const VALUES = ['ExpressionAttributeValues'];
const keyed = (input: object) => convert(convert(input, ['Key'], toAttrs), VALUES, toAttrs);
const returnsAttributes = (output: Wire) => convert(output, ['Attributes'], fromAttrs);

export class GetCommand extends DbCommand<GetCommandInput, Output<GetCommandOutput>> {
  readonly operation = 'GetItem';
  toWire = (input: GetCommandInput) => convert(input, ['Key'], toAttrs);
  fromWire = (output: Wire) => convert(output, ['Item'], fromAttrs) as Output<GetCommandOutput>;
}

export class PutCommand extends DbCommand<PutCommandInput, Output<PutCommandOutput>> {
  readonly operation = 'PutItem';
  toWire = (input: PutCommandInput) => convert(convert(input, ['Item'], toAttrs), VALUES, toAttrs);
  fromWire = (output: Wire) => returnsAttributes(output) as Output<PutCommandOutput>;
}

export class UpdateCommand extends DbCommand<UpdateCommandInput, Output<UpdateCommandOutput>> {
  readonly operation = 'UpdateItem';
  toWire = (input: UpdateCommandInput) => keyed(input);
  fromWire = (output: Wire) => returnsAttributes(output) as Output<UpdateCommandOutput>;
}

export class DeleteCommand extends DbCommand<DeleteCommandInput, Output<DeleteCommandOutput>> {
  readonly operation = 'DeleteItem';
  toWire = (input: DeleteCommandInput) => keyed(input);
  fromWire = (output: Wire) => returnsAttributes(output) as Output<DeleteCommandOutput>;
}

const paged = (input: object) => convert(convert(input, ['ExclusiveStartKey'], toAttrs), VALUES, toAttrs);
const page = (output: Wire) => convert(convert(output, ['Items'], mapItems), ['LastEvaluatedKey'], fromAttrs);

export class QueryCommand extends DbCommand<QueryCommandInput, Output<QueryCommandOutput>> {
  readonly operation = 'Query';
  toWire = (input: QueryCommandInput) => paged(input);
  fromWire = (output: Wire) => page(output) as Output<QueryCommandOutput>;
}

export class ScanCommand extends DbCommand<ScanCommandInput, Output<ScanCommandOutput>> {
  readonly operation = 'Scan';
  toWire = (input: ScanCommandInput) => paged(input);
  fromWire = (output: Wire) => page(output) as Output<ScanCommandOutput>;
}

/** Each table's entry of a BatchGet's RequestItems or UnprocessedKeys. */
function batchKeys(requests: unknown, how: (value: unknown) => unknown): Wire | undefined {
  if (!requests) return undefined;
  return Object.fromEntries(
    Object.entries(requests as Record<string, Wire>).map(([table, entry]) => [
      table,
      { ...entry, Keys: (entry.Keys as unknown[]).map(how) },
    ]),
  );
}

export class BatchGetCommand extends DbCommand<BatchGetCommandInput, Output<BatchGetCommandOutput>> {
  readonly operation = 'BatchGetItem';
  toWire = (input: BatchGetCommandInput) => ({ ...input, RequestItems: batchKeys(input.RequestItems, toAttrs) });
  fromWire = (output: Wire) =>
    ({
      ...output,
      Responses:
        output.Responses &&
        Object.fromEntries(
          Object.entries(output.Responses as Record<string, Wire[]>).map(([t, items]) => [t, mapItems(items)]),
        ),
      UnprocessedKeys: batchKeys(output.UnprocessedKeys, fromAttrs),
    }) as Output<BatchGetCommandOutput>;
}

/** Each table's write requests of a BatchWrite's RequestItems or UnprocessedItems. */
function batchWrites(requests: unknown, how: (value: unknown) => unknown): Wire | undefined {
  if (!requests) return undefined;
  return Object.fromEntries(
    Object.entries(requests as Record<string, Wire[]>).map(([table, writes]) => [
      table,
      writes.map((write) =>
        write.PutRequest
          ? { PutRequest: convert(write.PutRequest as Wire, ['Item'], how) }
          : { DeleteRequest: convert(write.DeleteRequest as Wire, ['Key'], how) },
      ),
    ]),
  );
}

export class BatchWriteCommand extends DbCommand<BatchWriteCommandInput, Output<BatchWriteCommandOutput>> {
  readonly operation = 'BatchWriteItem';
  toWire = (input: BatchWriteCommandInput) => ({ ...input, RequestItems: batchWrites(input.RequestItems, toAttrs) });
  fromWire = (output: Wire) =>
    ({
      ...output,
      UnprocessedItems: batchWrites(output.UnprocessedItems, fromAttrs),
    }) as Output<BatchWriteCommandOutput>;
}

export class TransactWriteCommand extends DbCommand<TransactWriteCommandInput, Output<TransactWriteCommandOutput>> {
  readonly operation = 'TransactWriteItems';
  // A token of its own, as the SDK gives each: a retried request is then not applied twice.
  toWire = (input: TransactWriteCommandInput) => ({
    ClientRequestToken: crypto.randomUUID(),
    ...input,
    TransactItems: input.TransactItems?.map((entry) => {
      const { Put, Update, Delete, ConditionCheck } = entry;
      if (Put) return { Put: convert(convert(Put, ['Item'], toAttrs), VALUES, toAttrs) };
      if (Update) return { Update: keyed(Update) };
      if (Delete) return { Delete: keyed(Delete) };
      return { ConditionCheck: keyed(ConditionCheck!) };
    }),
  });
  fromWire = (output: Wire) => output as Output<TransactWriteCommandOutput>;
}

export class TransactGetCommand extends DbCommand<TransactGetCommandInput, Output<TransactGetCommandOutput>> {
  readonly operation = 'TransactGetItems';
  toWire = (input: TransactGetCommandInput) => ({
    ...input,
    TransactItems: input.TransactItems?.map(({ Get }) => ({ Get: convert(Get, ['Key'], toAttrs) })),
  });
  fromWire = (output: Wire) =>
    ({
      ...output,
      Responses: (output.Responses as Wire[] | undefined)?.map((r) => convert(r, ['Item'], fromAttrs)),
    }) as Output<TransactGetCommandOutput>;
}

/** Sees each request on the wire (operation, input, then output) and may change it: capacity meter, tracing. */
type DbInterceptor = (operation: string, input: Wire, next: (input: Wire) => Promise<Wire>) => Promise<Wire>;

export interface Db {
  send<I extends object, O extends object>(command: DbCommand<I, O>): Promise<O>;
  /** Adds an interceptor around every later request (the last added runs first). */
  intercept(interceptor: DbInterceptor): void;
}

/** Bytes (B, BS) as base64, as DynamoDB's JSON writes them. */
const bytesAsBase64 = (_key: string, value: unknown) =>
  value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;

/** A Db over one AWS JSON caller (tests give one that fails as they need). */
export function dbOver(call: AwsJsonCall): Db {
  let send = (operation: string, input: Wire) =>
    call<Wire>(operation, JSON.parse(JSON.stringify(input, bytesAsBase64)) as object);
  return {
    async send<I extends object, O extends object>(command: DbCommand<I, O>): Promise<O> {
      return command.fromWire({ $metadata: {}, ...(await send(command.operation, command.toWire(command.input))) });
    },
    intercept(interceptor) {
      const inner = send;
      send = (operation, input) => interceptor(operation, input, (changed) => inner(operation, changed));
    },
  };
}

export type DbOptions = Pick<AwsJsonOptions, 'region' | 'endpoint' | 'credentials'>;

/** DynamoDB in a region, or DynamoDB Local at `endpoint`. */
export function makeDb(options: DbOptions): Db {
  return dbOver(awsJson({ service: 'dynamodb', targetPrefix: 'DynamoDB_20120810', jsonVersion: '1.0', ...options }));
}

export interface CancellationReason {
  readonly Code?: string;
  readonly Message?: string;
  /** The item as it was, in DynamoDB's JSON (`{ S: '…' }`), when the write asked for ALL_OLD. */
  readonly Item?: Record<string, { readonly S?: string; readonly N?: string } & Record<string, unknown>>;
}

/** A write whose ConditionExpression was false (with the old `Item` when it asked for ALL_OLD). */
export function isConditionFailed(error: unknown): error is AwsServiceError & Pick<CancellationReason, 'Item'> {
  return (error as { name?: unknown } | undefined)?.name === 'ConditionalCheckFailedException';
}

/** A transaction DynamoDB refused, with a reason for each of its items in order. */
export function isTransactionCanceled(
  error: unknown,
): error is AwsServiceError & { CancellationReasons?: CancellationReason[] } {
  return (error as { name?: unknown } | undefined)?.name === 'TransactionCanceledException';
}

export { AwsServiceError };

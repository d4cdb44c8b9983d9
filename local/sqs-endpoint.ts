// A stand-in for the SQS API in front of the local queues, speaking the JSON protocol
// that @aws-sdk/client-sqs v3 uses (POST, `x-amz-target: AmazonSQS.<Operation>`,
// `application/x-amz-json-1.0`), so that the Lambda code (lambdas/adapters/outbound-queue.ts,
// over lambdas/lib/aws-json.ts) and ops/ (the real SDK) send to it as to SQS. Only what the product uses: SendMessage, SendMessageBatch,
// ChangeMessageVisibility, GetQueueUrl, GetQueueAttributes, and the dead-letter redrive
// (StartMessageMoveTask, ListMessageMoveTasks). Each queue's dead letters are reachable
// as the queue `<name>-dlq`. Receiving is the local queue's own event source mapping,
// as in AWS.
import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { BodyTooLargeError, readBody, type RunningServer, startServer } from './http-util';
import { md5OfAttributes, type LocalQueue } from './queue';

const localAccountId = '000000000000';

export interface SqsEndpointOptions {
  port: number;
  /** Queues by name; each is reachable at `<url>/000000000000/<name>`. */
  queues: Readonly<Record<string, LocalQueue>>;
}

export interface SqsEndpoint extends RunningServer {
  /** `http://127.0.0.1:<port>/000000000000/<name>` (whether or not the queue exists). */
  queueUrl(name: string): string;
}

/** An SQS error: its JSON `__type`, its query-protocol code (the SDK reads both), HTTP status. */
class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly queryCode: string = type,
    readonly status = 400,
  ) {
    super(message);
  }
}

const queueDoesNotExist = () =>
  new SqsError('QueueDoesNotExist', 'The specified queue does not exist.', 'AWS.SimpleQueueService.NonExistentQueue');
const invalidParameter = (message: string) => new SqsError('InvalidParameterValue', message);

const maxMessageBytes = 262_144;
const maxBatchEntries = 10;
const maxVisibilitySeconds = 43_200;

const attributeValueSchema = z.object({
  DataType: z.string(),
  StringValue: z.string().optional(),
  BinaryValue: z.string().optional(),
});
const messageFields = {
  MessageBody: z.string(),
  DelaySeconds: z.number().int().min(0).max(900).optional(),
  MessageAttributes: z.record(z.string(), attributeValueSchema).optional(),
};
const queueUrlField = { QueueUrl: z.string() };

const sendMessageSchema = z.object({ ...queueUrlField, ...messageFields });
const sendMessageBatchSchema = z.object({
  ...queueUrlField,
  Entries: z.array(z.object({ Id: z.string(), ...messageFields })),
});
const changeVisibilitySchema = z.object({
  ...queueUrlField,
  ReceiptHandle: z.string(),
  VisibilityTimeout: z.number().int(),
});
const getQueueUrlSchema = z.object({ QueueName: z.string(), QueueOwnerAWSAccountId: z.string().optional() });
const getQueueAttributesSchema = z.object({ ...queueUrlField, AttributeNames: z.array(z.string()).optional() });
const startMoveSchema = z.object({ SourceArn: z.string(), DestinationArn: z.string().optional() });
const listMovesSchema = z.object({ SourceArn: z.string() });

const DLQ_SUFFIX = '-dlq';

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join('.') || '(body)';
    if (issue?.code === 'invalid_type' && issue.input === undefined) {
      throw new SqsError('MissingParameter', `The request must contain the parameter ${field}.`);
    }
    throw invalidParameter(`Value for parameter ${field} is invalid. Reason: ${issue?.message ?? 'invalid'}.`);
  }
  return result.data;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The local queue keeps String attributes only; anything else is refused rather than altered. */
function stringAttributes(attributes: Record<string, z.infer<typeof attributeValueSchema>> | undefined) {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value.DataType !== 'String' || value.StringValue === undefined) {
      throw invalidParameter(
        `Message attribute ${name}: the local queue supports DataType String with a StringValue only.`,
      );
    }
    result[name] = value.StringValue;
  }
  return result;
}

type Message = z.infer<typeof sendMessageSchema>;

/** Sends one message; resolves with the SendMessage result fields. */
async function sendTo(queue: LocalQueue, message: Omit<Message, 'QueueUrl'>) {
  const attributes = stringAttributes(message.MessageAttributes);
  let messageId: string;
  try {
    messageId = await queue.send(message.MessageBody, attributes, (message.DelaySeconds ?? 0) * 1000);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const type = /^(\w+):/.exec(text)?.[1];
    throw type === 'MissingParameter' ? new SqsError('MissingParameter', text) : invalidParameter(text);
  }
  return {
    MessageId: messageId,
    MD5OfMessageBody: md5(message.MessageBody),
    ...(Object.keys(attributes).length > 0 && { MD5OfMessageAttributes: md5OfAttributes(attributes) }),
  };
}

export async function startSqsEndpoint(options: SqsEndpointOptions): Promise<SqsEndpoint> {
  let baseUrl = '';
  const queueUrl = (name: string) => `${baseUrl}/${localAccountId}/${name}`;

  const moves: { sourceArn: string; handle: string; moved: number; started: number }[] = [];
  /** The queue whose dead letters an ARN or name of the form `<queue>-dlq` names. */
  const dlqOwner = (nameOrArn: string): LocalQueue | undefined => {
    if (!nameOrArn.endsWith(DLQ_SUFFIX)) return undefined;
    const base = nameOrArn.slice(0, -DLQ_SUFFIX.length);
    return Object.values(options.queues).find((q) => q.arn === base || q.name === base);
  };

  const queueAt = (url: string): LocalQueue => {
    let path: string[];
    try {
      path = new URL(url).pathname.split('/').filter(Boolean);
    } catch {
      throw invalidParameter(`Value ${url} for parameter QueueUrl is invalid. Reason: not a URL.`);
    }
    const [account, name, ...rest] = path;
    if (account !== localAccountId || !name || rest.length > 0 || !Object.hasOwn(options.queues, name)) {
      throw queueDoesNotExist();
    }
    return options.queues[name]!;
  };

  const operations: Record<string, (input: unknown) => Promise<unknown>> = {
    SendMessage: async (input) => {
      const { QueueUrl, ...message } = parse(sendMessageSchema, input);
      return sendTo(queueAt(QueueUrl), message);
    },
    SendMessageBatch: async (input) => {
      const { QueueUrl, Entries } = parse(sendMessageBatchSchema, input);
      const queue = queueAt(QueueUrl);
      if (Entries.length === 0)
        throw new SqsError(
          'EmptyBatchRequest',
          'There should be at least one SendMessageBatchRequestEntry in the request.',
        );
      if (Entries.length > maxBatchEntries) {
        throw new SqsError(
          'TooManyEntriesInBatchRequest',
          `Maximum number of entries per request are ${maxBatchEntries}. You have sent ${Entries.length}.`,
        );
      }
      const ids = new Set<string>();
      for (const entry of Entries) {
        if (!/^[A-Za-z0-9_-]{1,80}$/.test(entry.Id)) {
          throw new SqsError(
            'InvalidBatchEntryId',
            `A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.`,
          );
        }
        if (ids.has(entry.Id)) throw new SqsError('BatchEntryIdsNotDistinct', `Id ${entry.Id} repeated.`);
        ids.add(entry.Id);
      }
      const total = Entries.reduce((n, e) => n + Buffer.byteLength(e.MessageBody), 0);
      if (total > maxMessageBytes) {
        throw new SqsError(
          'BatchRequestTooLong',
          `Batch requests cannot be longer than ${maxMessageBytes} bytes. You have sent ${total} bytes.`,
        );
      }
      const Successful: unknown[] = [];
      const Failed: unknown[] = [];
      for (const { Id, ...message } of Entries) {
        try {
          Successful.push({ Id, ...(await sendTo(queue, message)) });
        } catch (error) {
          if (!(error instanceof SqsError)) throw error;
          Failed.push({ Id, SenderFault: true, Code: error.type, Message: error.message });
        }
      }
      return { Successful, Failed };
    },
    ChangeMessageVisibility: async (input) => {
      const { QueueUrl, ReceiptHandle, VisibilityTimeout } = parse(changeVisibilitySchema, input);
      const queue = queueAt(QueueUrl);
      if (VisibilityTimeout < 0 || VisibilityTimeout > maxVisibilitySeconds) {
        throw invalidParameter(
          `Value ${VisibilityTimeout} for parameter VisibilityTimeout is invalid. Reason: must be between 0 and ${maxVisibilitySeconds}.`,
        );
      }
      switch (queue.changeVisibility(ReceiptHandle, VisibilityTimeout * 1000)) {
        case 'changed':
          return {};
        case 'invalid-receipt':
          throw new SqsError(
            'ReceiptHandleIsInvalid',
            `The input receipt handle "${ReceiptHandle}" is not a valid receipt handle.`,
            'ReceiptHandleIsInvalid',
            404,
          );
        case 'not-in-flight':
          throw new SqsError(
            'MessageNotInflight',
            'The message referred to is not in flight.',
            'AWS.SimpleQueueService.MessageNotInflight',
          );
      }
    },
    GetQueueUrl: async (input) => {
      const { QueueName, QueueOwnerAWSAccountId } = parse(getQueueUrlSchema, input);
      if (QueueOwnerAWSAccountId !== undefined && QueueOwnerAWSAccountId !== localAccountId) throw queueDoesNotExist();
      if (!Object.hasOwn(options.queues, QueueName)) throw queueDoesNotExist();
      return { QueueUrl: queueUrl(QueueName) };
    },
    GetQueueAttributes: async (input) => {
      const { QueueUrl, AttributeNames = [] } = parse(getQueueAttributesSchema, input);
      const dlqName = new URL(QueueUrl).pathname.split('/').filter(Boolean)[1] ?? '';
      const owner = dlqOwner(dlqName);
      let all: Record<string, string>;
      if (owner) {
        all = {
          QueueArn: `${owner.arn}${DLQ_SUFFIX}`,
          ApproximateNumberOfMessages: String(owner.deadLetters().length),
          ApproximateNumberOfMessagesNotVisible: '0',
          ApproximateNumberOfMessagesDelayed: '0',
        };
      } else {
        const queue = queueAt(QueueUrl);
        const stats = queue.stats();
        all = {
          QueueArn: queue.arn,
          ApproximateNumberOfMessages: String(stats.visible),
          ApproximateNumberOfMessagesNotVisible: String(stats.inFlight),
          ApproximateNumberOfMessagesDelayed: '0',
        };
      }
      const wanted = AttributeNames.includes('All') ? Object.keys(all) : AttributeNames;
      const Attributes = Object.fromEntries(wanted.filter((n) => n in all).map((n) => [n, all[n]!]));
      return Object.keys(Attributes).length > 0 ? { Attributes } : {};
    },
    // The dead-letter redrive: moves every dead letter back to its queue, where it is
    // delivered again (SQS moves to the original source queue when no destination is given).
    StartMessageMoveTask: async (input) => {
      const { SourceArn, DestinationArn } = parse(startMoveSchema, input);
      const owner = dlqOwner(SourceArn);
      if (!owner)
        throw new SqsError('ResourceNotFoundException', `The source queue ${SourceArn} is not a dead-letter queue.`);
      if (DestinationArn && DestinationArn !== owner.arn)
        throw invalidParameter('DestinationArn must be the source queue.');
      const handle = Buffer.from(JSON.stringify({ source: SourceArn, id: randomUUID() })).toString('base64');
      moves.push({ sourceArn: SourceArn, handle, moved: owner.redrive(), started: Date.now() });
      return { TaskHandle: handle };
    },
    ListMessageMoveTasks: async (input) => {
      const { SourceArn } = parse(listMovesSchema, input);
      return {
        Results: moves
          .filter((m) => m.sourceArn === SourceArn)
          .reverse()
          .map((m) => ({
            TaskHandle: m.handle,
            Status: 'COMPLETED',
            SourceArn: m.sourceArn,
            ApproximateNumberOfMessagesMoved: m.moved,
            ApproximateNumberOfMessagesToMove: m.moved,
            StartedTimestamp: m.started,
          })),
      };
    },
  };

  const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': Buffer.byteLength(text),
      'x-amzn-requestid': randomUUID(),
      ...headers,
    });
    res.end(text);
  };
  const fail = (res: ServerResponse, error: SqsError) =>
    answer(
      res,
      error.status,
      { __type: `com.amazonaws.sqs#${error.type}`, message: error.message },
      { 'x-amzn-query-error': `${error.queryCode};Sender` },
    );

  const server = await startServer(options.port, async (req, res) => {
    const target = req.headers['x-amz-target'];
    const operation =
      typeof target === 'string' && target.startsWith('AmazonSQS.') ? target.slice('AmazonSQS.'.length) : '';
    const run = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
    if (req.method !== 'POST' || !run) {
      return answer(res, 400, {
        __type: 'com.amazon.coral.service#UnknownOperationException',
        message: `The local SQS endpoint does not support ${req.method} ${operation || String(target ?? '(no x-amz-target)')}`,
      });
    }
    let input: unknown;
    try {
      const text = await readBody(req, 2 * maxMessageBytes);
      input = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return fail(res, invalidParameter(error.message));
      return answer(res, 400, {
        __type: 'com.amazon.coral.service#SerializationException',
        message: 'The body is not JSON.',
      });
    }
    try {
      answer(res, 200, await run(input));
    } catch (error) {
      if (!(error instanceof SqsError)) throw error;
      fail(res, error);
    }
  });
  baseUrl = server.url;
  return { ...server, queueUrl };
}

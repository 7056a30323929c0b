// An OTLP/gRPC receiver for tests: a real gRPC server on 127.0.0.1 serving the collector's logs and
// metrics services, decoding each export with the opentelemetry-proto message definitions.
import {
  Server,
  ServerCredentials,
  type sendUnaryData,
  type ServerUnaryCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { flatten, logBook, type ReceivedLog, type WireLogs } from './otlp-receiver';
import { decodeLogs, decodeMetrics } from './otlp-proto';

/** A unary Export method whose messages stay bytes: decoding is the receiver's. */
const exportMethod = (service: string) => ({
  Export: {
    path: `/opentelemetry.proto.collector.${service}/Export`,
    requestStream: false,
    responseStream: false,
    requestSerialize: (b: Buffer) => b,
    requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b,
    responseDeserialize: (b: Buffer) => b,
  },
});

export interface OtlpGrpcReceiver {
  /** The address, as `telemetry.otlp.endpoint` takes it with `protocol: "grpc"`. */
  readonly url: string;
  readonly logs: ReceivedLog[];
  /** Every metrics export received, decoded into OTLP/JSON's field names. */
  readonly metrics: unknown[];
  /** The call metadata of every export received. */
  readonly metadata: Record<string, string>[];
  waitForLogs(count: number, predicate?: (log: ReceivedLog) => boolean): Promise<ReceivedLog[]>;
  close(): Promise<void>;
}

export async function startOtlpGrpcReceiver(): Promise<OtlpGrpcReceiver> {
  const book = logBook();
  const metrics: unknown[] = [];
  const metadata: Record<string, string>[] = [];
  // An empty message is a full success for either service's Export response.
  const answer = (
    call: ServerUnaryCall<Buffer, Buffer>,
    done: sendUnaryData<Buffer>,
    take: (body: Buffer) => void,
  ) => {
    metadata.push(
      Object.fromEntries(Object.entries(call.metadata.getMap()).map(([k, v]) => [k, String(v)])),
    );
    take(call.request);
    done(null, Buffer.alloc(0));
  };
  const logs: UntypedServiceImplementation = {
    Export: (call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) =>
      answer(call, done, (body) =>
        book.add(flatten(decodeLogs(body) as WireLogs, 'application/grpc')),
      ),
  };
  const metricsService: UntypedServiceImplementation = {
    Export: (call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) =>
      answer(call, done, (body) => metrics.push(decodeMetrics(body))),
  };
  const server = new Server();
  server.addService(exportMethod('logs.v1.LogsService'), logs);
  server.addService(exportMethod('metrics.v1.MetricsService'), metricsService);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    logs: book.logs,
    metrics,
    metadata,
    waitForLogs: (count, predicate) => book.waitForLogs(count, predicate),
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        // A client still connected must not keep the test waiting.
        setTimeout(() => server.forceShutdown(), 1000).unref();
      }),
  };
}

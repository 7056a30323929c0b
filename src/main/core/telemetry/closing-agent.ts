// The connections of an OTLP exporter over HTTP, closed with it. The exporter retries a failed
// request on timers of its own that its shutdown does not cancel: a core closed while the collector
// was down kept retrying its last batch for up to the export timeout, and a collector back within it
// got that batch from the closed core and again from the next one, which resumes from the saved
// cursor. Once closed, this agent opens no connection: the retry fails for good, and the batch is
// sent once, by the next start.
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

type Created = (error: Error | null, socket?: Duplex) => void;

export class ClosingAgents {
  private closed = false;
  private readonly agents: http.Agent[] = [];

  /** For the exporter's `httpAgentOptions`: one kept-alive agent per protocol it asks for. */
  readonly factory = (protocol: string): http.Agent => {
    const Base = protocol === 'https:' ? https.Agent : http.Agent;
    const isClosed = () => this.closed;
    const agent = new (class extends Base {
      override createConnection(options: never, created: Created): Duplex | null | undefined {
        if (isClosed()) {
          // No network error code: the exporter takes it as final, not as one more to retry.
          process.nextTick(() => created(new Error('the exporter was shut down')));
          return undefined;
        }
        return super.createConnection(options, created);
      }
    })({ keepAlive: true });
    this.agents.push(agent);
    return agent;
  };

  /** No new connection from now on; the open ones are ended. */
  close(): void {
    this.closed = true;
    for (const agent of this.agents) agent.destroy();
  }
}

/** `exporter`, whose shutdown first closes the agents its requests go through. */
export function closingWith<T extends { shutdown(): Promise<void> }>(
  exporter: T,
  agents: ClosingAgents,
): T {
  const shutdown = exporter.shutdown.bind(exporter);
  exporter.shutdown = () => {
    agents.close();
    return shutdown();
  };
  return exporter;
}

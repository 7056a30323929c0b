// The floors of bench/sse-latency.ts: the same agents (bench/agents/timestamp-agent.ts) driven by a
// plain SDK client that stands where Gatehouse stands, with nothing in between.
//   one agent:  its request/answer round trips, answered at once (the raw ACP round trip);
//   same load:  as many agents as the measured run, started and answered at its pace (the oldest
//               request every `voteMs`), each request's one-way delay taken when the client's
//               handler receives it. Gatehouse's run differs from this one only by Gatehouse.
// Both report the client process's CPU per request, the floor of Gatehouse's own.
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';

const AGENT = fileURLToPath(new URL('./agents/timestamp-agent.ts', import.meta.url));

export interface FloorRun {
  /** Nanoseconds: round trips (one agent) or one-way delays (same load). */
  samples: number[];
  cpuUsPerRequest: number;
}

type Answer = (
  params: acp.RequestPermissionRequest,
) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

/** Answers every request with its first option. */
export const allow = (params: acp.RequestPermissionRequest): acp.RequestPermissionResponse => ({
  outcome: { outcome: 'selected', optionId: params.options[0]!.optionId },
});

/** One agent process with a session, answered by `answer`; `text` is what it said so far. */
export async function floorAgent(cwd: string, answer: Answer) {
  const child = spawn(process.execPath, [AGENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  let text = '';
  const app = acp
    .client({ name: 'bench-floor' })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => answer(params))
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const update = params.update;
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
        text += update.content.text;
      }
    });
  const connection = app.connect(
    acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, {
    cwd,
    mcpServers: [],
  });
  return {
    /** `shape`: what the agent asks about (bench/agents/timestamp-agent.ts). */
    prompt: (count: number, thinkMs: number, shape = 'command') =>
      connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: `${count} ${thinkMs} ${shape}` }],
      }),
    said: () => {
      const said = text;
      text = '';
      return said;
    },
    stop: () => child.kill(),
  };
}

/**
 * One agent, answered at once (or as `answer` does): the raw ACP round trip, after `warmup`
 * requests unmeasured.
 */
export async function oneAgentFloor(
  cwd: string,
  requests: number,
  thinkMs: number,
  shape = 'command',
  warmup = Math.min(500, requests),
  answer: Answer = allow,
): Promise<FloorRun> {
  const agent = await floorAgent(cwd, answer);
  try {
    await agent.prompt(warmup, thinkMs, shape); // both sides
    agent.said();
    const cpu = process.cpuUsage();
    await agent.prompt(requests, thinkMs, shape);
    const used = process.cpuUsage(cpu);
    return {
      samples: JSON.parse(agent.said().replace(/^rtt_ns /, '')) as number[],
      cpuUsPerRequest: (used.user + used.system) / requests,
    };
  } finally {
    agent.stop();
  }
}

/**
 * One prompt per session, a session starting every `intervalMs` so that arrivals never come as a
 * burst. Every run does one such round to warm up (unmeasured: the first requests run code the JIT
 * has not optimised yet, and the one-agent floor is warmed up too), then the measured one.
 */
export async function pacedRound<T>(
  sessions: T[],
  intervalMs: number,
  prompt: (session: T) => Promise<unknown>,
): Promise<void> {
  await Promise.all(
    sessions.map(async (session, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * intervalMs));
      await prompt(session);
    }),
  );
}

/** `sessions` agents at the measured run's pace, answered oldest first, one every `voteMs`. */
export async function sameLoadFloor(
  cwd: string,
  options: { sessions: number; perSession: number; voteMs: number; thinkMs: number },
): Promise<FloorRun> {
  const samples: number[] = [];
  const queue: (() => void)[] = [];
  const answer: Answer = (params) => {
    const raw = params.toolCall.rawInput as { sentAtNs?: string } | undefined;
    // Each session's first request arrives while the others start: left out, as in the measured run.
    if (raw?.sentAtNs && params.toolCall.toolCallId !== 'call-0') {
      samples.push(Number(process.hrtime.bigint() - BigInt(raw.sentAtNs)));
    }
    return new Promise((resolve) => queue.push(() => resolve(allow(params))));
  };
  const agents: Awaited<ReturnType<typeof floorAgent>>[] = [];
  const voter = setInterval(() => queue.shift()?.(), options.voteMs);
  try {
    for (let i = 0; i < options.sessions; i++) agents.push(await floorAgent(cwd, answer));
    const round = () =>
      pacedRound(agents, options.voteMs, (agent) =>
        agent.prompt(options.perSession, options.thinkMs),
      );
    await round();
    samples.length = 0;
    const cpu = process.cpuUsage();
    await round();
    const used = process.cpuUsage(cpu);
    return {
      samples,
      cpuUsPerRequest: (used.user + used.system) / (options.sessions * options.perSession),
    };
  } finally {
    clearInterval(voter);
    for (const agent of agents) agent.stop();
  }
}

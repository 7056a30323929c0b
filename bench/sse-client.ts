// The UI client of bench/sse-latency.ts, in its own process as a browser would be: the renderer's
// HttpApi over real HTTP + SSE. For every permission_requested event it records, on arrival, the
// delay since the agent sent the request (both clocks are CLOCK_MONOTONIC), and queues the request;
// it votes on the oldest queued request every `intervalMs`, so that agents go on at a steady pace
// rather than in a burst. Driven over the fork() IPC channel:
//   parent → { type: 'reset' }, { type: 'done' }      child → { type: 'ready' }, { type: 'reset' }, { type: 'samples', ... }
import { HttpApi } from '../src/renderer/src/api/http-client';

const [url, token, intervalArg] = process.argv.slice(2);
if (!url || !token || !process.send) {
  throw new Error('usage: fork(sse-client.ts, [url, token, intervalMs]) from bench/sse-latency.ts');
}
const intervalMs = Number(intervalArg ?? 4);
const send = (message: unknown) => process.send!(message);

const api = new HttpApi(url, token);
await api.connect('bench-ui', 'api');
const samples: { requestId: string; callId: string; delayNs: number }[] = [];
const queue: { requestId: string; optionId: string }[] = [];
let connected = false;

api.onConnectionChange((up) => {
  if (up && !connected) {
    connected = true;
    send({ type: 'ready' });
  }
});
api.subscribe((event) => {
  if (event.type !== 'permission_requested') return;
  const received = process.hrtime.bigint();
  const raw = event.approval.toolCall.rawInput as { sentAtNs?: string } | undefined;
  if (raw?.sentAtNs) {
    samples.push({
      requestId: event.approval.requestId,
      callId: event.approval.toolCall.toolCallId,
      delayNs: Number(received - BigInt(raw.sentAtNs)),
    });
  }
  queue.push({
    requestId: event.approval.requestId,
    optionId: event.approval.options[0]!.optionId,
  });
});

let voting = false;
const timer = setInterval(() => {
  const next = queue.shift();
  if (!next || voting) {
    if (next) queue.unshift(next);
    return;
  }
  voting = true;
  api
    .call('vote', next)
    .catch((error: unknown) => console.error('vote failed:', error))
    .finally(() => {
      voting = false;
    });
}, intervalMs);

process.on('message', (message: { type?: string }) => {
  if (message.type === 'reset') {
    // The warm-up round is over: every request of it was answered, so none of its events is still due.
    samples.length = 0;
    send({ type: 'reset' });
    return;
  }
  if (message.type !== 'done') return;
  clearInterval(timer);
  api.close();
  // Disconnecting at once can drop a message too large for the channel's buffer (a few thousand samples).
  process.send!({ type: 'samples', samples }, () => process.disconnect());
});

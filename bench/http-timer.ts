// Times GETs from a thread of its own, as a browser asks: the client's request and JSON parse run
// beside the server's thread instead of on it (the bench and the core share one process). The
// request goes through node:http, whose parser is native as a browser's network stack is: undici's
// fetch spent ~0.4 ms of JavaScript per GET on the same two CPUs the core and its reader run on, and
// doubled the empty GET's floor.
import { Worker } from 'node:worker_threads';

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, token, paths, warmups } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const headers = { authorization: 'Bearer ' + token };
function get(path) {
  return new Promise((resolve, reject) => {
    const req = http.get(url + path, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
(async () => {
  const samples = [];
  let items = 0;
  let cpu = null;
  for (let i = 0; i < paths.length; i++) {
    if (i === warmups) cpu = process.threadCpuUsage();
    const start = performance.now();
    const { status, text } = await get(paths[i]);
    const body = JSON.parse(text);
    const took = performance.now() - start;
    if (status !== 200) throw new Error('GET ' + paths[i] + ': HTTP ' + status + ' ' + text);
    if (Array.isArray(body.items)) items += body.items.length;
    if (i >= warmups) samples.push(took);
  }
  const used = process.threadCpuUsage(cpu ?? undefined);
  agent.destroy();
  parentPort.postMessage({ samples, items, cpuUs: used.user + used.system });
})().catch((error) => parentPort.postMessage({ error: String(error && error.message || error) }));
`;

export interface TimedGets {
  /** ms of each GET after the first `warmups`. */
  samples: number[];
  /** The items the pages held (all of them). */
  items: number;
  /** CPU the client's thread spent on the GETs after the warm-up (µs): what a browser would. */
  cpuUs: number;
}

export function timeGets(
  url: string,
  token: string,
  paths: string[],
  warmups: number,
): Promise<TimedGets> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: { url, token, paths, warmups } });
    worker.once('message', (m: TimedGets | { error: string }) => {
      void worker.terminate();
      if ('error' in m) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
  });
}

// Times GETs from a thread of its own, as a browser asks: the client's fetch and JSON parse run
// beside the server's thread instead of on it (the bench and the core share one process).
import { Worker } from 'node:worker_threads';

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, paths, warmups } = workerData;
(async () => {
  const headers = { authorization: 'Bearer ' + token };
  const samples = [];
  let items = 0;
  let cpu = null;
  for (let i = 0; i < paths.length; i++) {
    if (i === warmups) cpu = process.threadCpuUsage();
    const start = performance.now();
    const response = await fetch(url + paths[i], { headers });
    const body = await response.json();
    const took = performance.now() - start;
    if (!response.ok) throw new Error('GET ' + paths[i] + ': HTTP ' + response.status + ' ' + JSON.stringify(body));
    if (Array.isArray(body.items)) items += body.items.length;
    if (i >= warmups) samples.push(took);
  }
  const used = process.threadCpuUsage(cpu ?? undefined);
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

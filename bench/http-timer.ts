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
  for (let i = 0; i < paths.length; i++) {
    const start = performance.now();
    const response = await fetch(url + paths[i], { headers });
    const body = await response.json();
    const took = performance.now() - start;
    if (!response.ok) throw new Error('GET ' + paths[i] + ': HTTP ' + response.status + ' ' + JSON.stringify(body));
    if (Array.isArray(body.items)) items += body.items.length;
    if (i >= warmups) samples.push(took);
  }
  parentPort.postMessage({ samples, items });
})().catch((error) => parentPort.postMessage({ error: String(error && error.message || error) }));
`;

/** ms of each GET after the first `warmups`, and the items the pages held (all of them). */
export function timeGets(
  url: string,
  token: string,
  paths: string[],
  warmups: number,
): Promise<{ samples: number[]; items: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: { url, token, paths, warmups } });
    worker.once('message', (m: { samples: number[]; items: number } | { error: string }) => {
      void worker.terminate();
      if ('error' in m) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
  });
}

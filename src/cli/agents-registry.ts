// `gatehouse agents import-registry <file>` and `fetch-registry`: the ACP Registry snapshot the
// core starts registry agents from ($GATEHOUSE_HOME/registry.json). Either replaces the snapshot
// only with a file that validates whole; anything else leaves the old one as it was.
import { ACP_REGISTRY_URL, REGISTRY_LIMITS, type Registry } from '../shared/registry-format';
import {
  readBounded,
  registrySnapshotPath,
  RegistryFileError,
  saveRegistrySnapshot,
  loadSettings,
  resolveHome,
} from '../main/core';
import { EXIT, type CliIo } from './io';

export const AGENTS_HELP = `Usage: gatehouse agents <command>

Commands:
  import-registry <file>  validate an ACP Registry file (registry.json) and make it the snapshot
                          agents with "registry": "<id>" in settings.json start from
  fetch-registry          fetch the registry from agentRegistry.url in settings.json (https only)
                          and make it the snapshot

The snapshot is $GATEHOUSE_HOME/registry.json; an invalid file leaves it unchanged.`;

const FETCH_TIMEOUT_MS = 30_000;

function saved(registry: Registry, from: string, home: string, io: CliIo): number {
  const count = registry.agents.length;
  io.out(
    `${count} ${count === 1 ? 'agent' : 'agents'} from ${from} in ${registrySnapshotPath(home)}`,
  );
  return EXIT.ok;
}

/** Runs `save`; a file that does not validate is reported problem by problem. */
function reported(io: CliIo, save: () => number): number {
  try {
    return save();
  } catch (error) {
    if (!(error instanceof RegistryFileError)) throw error;
    io.err(`gatehouse agents: ${error.message}\nThe snapshot is unchanged.`);
    return EXIT.failed;
  }
}

export function importRegistry(file: string, io: CliIo): number {
  const home = resolveHome(io.env);
  return reported(io, () => {
    let text: string;
    try {
      text = readBounded(file);
    } catch (error) {
      if (error instanceof RegistryFileError) throw error;
      throw new RegistryFileError(file, [`cannot be read: ${(error as Error).message}`]);
    }
    return saved(saveRegistrySnapshot(home, text, file), file, home, io);
  });
}

/** The body, or an error once it passes the limit: a hostile server cannot make us hold more. */
async function boundedBody(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > REGISTRY_LIMITS.fileBytes) {
      await reader.cancel();
      throw new Error(`the response is larger than ${REGISTRY_LIMITS.fileBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isHttps = (url: string) => /^https:\/\//i.test(url);

/** `fetchImpl` is the global fetch; tests give theirs, so no test reaches the network. */
export async function fetchRegistry(io: CliIo, fetchImpl: typeof fetch = fetch): Promise<number> {
  const home = resolveHome(io.env);
  let url: string;
  let text: string;
  try {
    url = loadSettings(home).agentRegistry?.url ?? ACP_REGISTRY_URL;
    // settings.json holds only https URLs; checked again where it is used.
    if (!isHttps(url)) throw new Error(`${url} is not an https:// URL`);
    const response = await fetchImpl(url, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      redirect: 'follow',
    });
    if (response.url && !isHttps(response.url))
      throw new Error(`redirected to ${response.url}, not https`);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    text = await boundedBody(response);
  } catch (error) {
    io.err(
      `gatehouse agents: fetch-registry failed: ${(error as Error).message}\nThe snapshot is unchanged.`,
    );
    return EXIT.failed;
  }
  return reported(io, () => saved(saveRegistrySnapshot(home, text, url), url, home, io));
}

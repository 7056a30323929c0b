// The ACP Registry snapshot Gatehouse starts registry agents from: $GATEHOUSE_HOME/registry.json,
// put there by `gatehouse agents import-registry` or `fetch-registry`. Read and validated whole at
// each use: a snapshot that fails validation starts no registry agent and lists nothing.
import {
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  closeSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  distributionKinds,
  Registry,
  REGISTRY_LIMITS,
  type RegistryListing,
} from '../../../shared/registry-format';
import { describeIssues } from '../config/settings-file';
import { checkJsonShape, describeJsonProblem, type JsonLimits } from '../safety/json-guard';

/** The registry nests five levels; its largest strings are descriptions. */
const REGISTRY_JSON_LIMITS: JsonLimits = {
  maxDepth: 12,
  maxNodes: 200_000,
  maxStringBytes: REGISTRY_LIMITS.fileBytes,
};

export class RegistryFileError extends Error {
  override name = 'RegistryFileError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      `${file} is not a valid ACP Registry file:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

export function registrySnapshotPath(home: string): string {
  return join(home, 'registry.json');
}

/** Every problem of a registry text, or the registry; nothing recursive sees it before its shape passed. */
export function parseRegistry(text: string, file: string): Registry {
  if (Buffer.byteLength(text) > REGISTRY_LIMITS.fileBytes) {
    throw new RegistryFileError(file, [`larger than ${REGISTRY_LIMITS.fileBytes} bytes`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RegistryFileError(file, [`not JSON: ${(error as Error).message}`]);
  }
  const shape = checkJsonShape(json, REGISTRY_JSON_LIMITS);
  if (shape) throw new RegistryFileError(file, [describeJsonProblem(shape)]);
  const parsed = Registry.safeParse(json);
  if (!parsed.success) throw new RegistryFileError(file, describeIssues(parsed.error));
  return parsed.data;
}

/** Reads at most the limit and one byte more: a huge file is refused without being loaded. */
export function readBounded(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(REGISTRY_LIMITS.fileBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) break;
    }
    if (length > REGISTRY_LIMITS.fileBytes) {
      throw new RegistryFileError(file, [`larger than ${REGISTRY_LIMITS.fileBytes} bytes`]);
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The snapshot, or null when none was imported. Throws RegistryFileError when it is not valid. */
export function loadRegistrySnapshot(home: string): Registry | null {
  const file = registrySnapshotPath(home);
  if (!existsSync(file)) return null;
  return parseRegistry(readBounded(file), file);
}

/** Validates `text` and replaces the snapshot atomically; an invalid text leaves the old one as it was. */
export function saveRegistrySnapshot(home: string, text: string, source: string): Registry {
  const registry = parseRegistry(text, source);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = registrySnapshotPath(home);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
  return registry;
}

export function registryListing(registry: Registry | null): RegistryListing[] {
  return (registry?.agents ?? []).map((agent) => ({
    id: agent.id,
    name: agent.name,
    version: agent.version,
    description: agent.description,
    kinds: distributionKinds(agent),
  }));
}

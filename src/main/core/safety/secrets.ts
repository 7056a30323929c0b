// Files that hold credentials. Matched on the resolved absolute path, case-insensitively (macOS and
// Windows file systems are), relative to the home directory where the location is per-user.
import { sep } from 'node:path';
import { pathBelow } from '../fs/containment';
import { baseName } from './text';

const HOME_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['.ssh', 'SSH keys and configuration (~/.ssh)'],
  ['.gnupg', 'GnuPG keyring (~/.gnupg)'],
  ['.aws/credentials', 'AWS credentials (~/.aws/credentials)'],
  ['.aws/sso/cache', 'AWS SSO tokens (~/.aws/sso/cache)'],
  ['.azure', 'Azure CLI credentials (~/.azure)'],
  ['.config/gcloud', 'Google Cloud credentials (~/.config/gcloud)'],
  ['.netrc', 'login credentials (~/.netrc)'],
  ['.npmrc', 'npm registry tokens (~/.npmrc)'],
  ['.pypirc', 'PyPI tokens (~/.pypirc)'],
  ['.git-credentials', 'git credentials (~/.git-credentials)'],
  ['.pgpass', 'PostgreSQL passwords (~/.pgpass)'],
  ['.docker/config.json', 'Docker registry credentials (~/.docker/config.json)'],
  ['.kube/config', 'Kubernetes credentials (~/.kube/config)'],
  ['.config/gh/hosts.yml', 'GitHub CLI token (~/.config/gh/hosts.yml)'],
  ['.password-store', 'pass password store (~/.password-store)'],
  ['.local/share/keyrings', 'GNOME keyring (~/.local/share/keyrings)'],
  ['library/keychains', 'macOS keychain (~/Library/Keychains)'],
];

const ABSOLUTE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['/etc/shadow', 'system password hashes (/etc/shadow)'],
  ['/etc/gshadow', 'system group password hashes (/etc/gshadow)'],
  ['/etc/master.passwd', 'system password hashes (/etc/master.passwd)'],
  ['/private/etc/master.passwd', 'system password hashes (/etc/master.passwd)'],
  ['/library/keychains', 'macOS system keychain (/Library/Keychains)'],
];

// Templates of .env files are documentation, not secrets.
const ENV_TEMPLATES = new Set(['example', 'sample', 'template', 'dist', 'defaults']);

/** What kind of secret the file at `absPath` holds, or null. */
export function secretKind(absPath: string, homeDir: string): string | null {
  // The file's own kind is the more precise description ("SSH private key" over "~/.ssh").
  const byName = secretName(baseName(absPath));
  if (byName) return byName;
  const lower = absPath.toLowerCase();
  const below = homeDir === '' ? null : pathBelow(absPath, homeDir);
  if (below !== null) {
    const rel = below.split(sep).join('/').toLowerCase();
    for (const [prefix, label] of HOME_PREFIXES) {
      if (rel === prefix || rel.startsWith(`${prefix}/`)) return label;
    }
  }
  for (const [prefix, label] of ABSOLUTE_PREFIXES) {
    if (lower === prefix || lower.startsWith(`${prefix}/`)) return label;
  }
  return null;
}

/** Secrets recognisable by file name alone (so a bare `.env` or `id_rsa` argument counts). */
export function secretName(name: string): string | null {
  const n = name.toLowerCase();
  if (n === '.env') return 'environment file (.env)';
  if (n.startsWith('.env.')) {
    return n
      .slice(5)
      .split('.')
      .some((part) => ENV_TEMPLATES.has(part))
      ? null
      : `environment file (${name})`;
  }
  if (/^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?!.*\.pub$)/.test(n))
    return `SSH private key (${name})`;
  if (/\.(?:pem|key|p12|pfx)$/.test(n)) return `key or certificate file (${name})`;
  if (/^credentials.*\.json$/.test(n)) return `credentials file (${name})`;
  if (/\.keychain(?:-db)?$/.test(n)) return `keychain (${name})`;
  return null;
}

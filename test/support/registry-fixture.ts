// An ACP Registry file as the registry publishes it (registry.json, format 1.0.0), cut to three
// agents, one of each distribution kind, with the fields Gatehouse ignores left in.

export function registryFixture(): {
  version: string;
  agents: Record<string, unknown>[];
  extensions: unknown[];
} {
  return {
    version: '1.0.0',
    agents: [
      {
        id: 'gemini',
        name: 'Gemini CLI',
        version: '0.27.3',
        description: "Google's official CLI for Gemini",
        repository: 'https://github.com/google-gemini/gemini-cli',
        authors: ['Google'],
        license: 'Apache-2.0',
        icon: 'https://cdn.agentclientprotocol.com/registry/v1/latest/gemini.svg',
        distribution: {
          npx: { package: '@google/gemini-cli@0.27.3', args: ['--experimental-acp'] },
        },
      },
      {
        id: 'mistral-vibe',
        name: 'Mistral Vibe',
        version: '2.0.2',
        description: "Mistral's open-source coding assistant",
        distribution: {
          uvx: { package: 'mistral-vibe@2.0.2', args: ['acp'] },
        },
      },
      {
        id: 'factory-droid',
        name: 'Factory Droid',
        version: '0.43.0',
        description: 'Factory AI coding agent',
        authors: ['Factory AI'],
        license: 'proprietary',
        distribution: {
          binary: {
            'darwin-aarch64': {
              archive:
                'https://downloads.factory.ai/factory-cli/releases/0.43.0/darwin/arm64/droid',
              cmd: './droid',
              args: ['exec', '--output-format', 'acp'],
              env: { DROID_DISABLE_AUTO_UPDATE: 'true' },
            },
            'linux-x86_64': {
              archive: 'https://downloads.factory.ai/factory-cli/releases/0.43.0/linux/x64/droid',
              cmd: './droid',
              args: ['exec', '--output-format', 'acp'],
              env: { DROID_DISABLE_AUTO_UPDATE: 'true' },
            },
            'windows-x86_64': {
              archive:
                'https://downloads.factory.ai/factory-cli/releases/0.43.0/windows/x64/droid.exe',
              cmd: './droid.exe',
              args: ['exec', '--output-format', 'acp'],
            },
          },
        },
      },
    ],
    extensions: [],
  };
}

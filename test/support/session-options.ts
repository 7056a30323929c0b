// The agent the session-options tests run, over HTTP and in Chromium: what it offers beside the
// permission mode, one value of which would make it stop asking.
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { ScriptedAgentScript } from './agents/scripted-agent';

const OPTIONS: SessionConfigOption[] = [
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'fast',
    options: [
      { value: 'fast', name: 'Fast' },
      { value: 'smart', name: 'Smart' },
    ],
  },
  {
    id: 'approval_policy',
    name: 'Approvals',
    type: 'select',
    currentValue: 'ask',
    options: [
      { value: 'ask', name: 'Ask first' },
      { value: 'yolo', name: 'YOLO', description: 'Run everything without asking' },
    ],
  },
  { id: 'thinking', name: 'Think harder', type: 'boolean', currentValue: false },
];

/** A model to choose, an approval level whose `yolo` reads as no longer asking, and a switch. */
export const OPTIONS_AGENT: ScriptedAgentScript = { configOptions: OPTIONS };

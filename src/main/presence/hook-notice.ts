// The notification of a hook `gatehouse hook install` wrote that was removed, changed or weakened:
// the terminal CLI it gated may now run tools that Gatehouse never sees. Shown until the hook is
// back, critical when the CLI is no longer gated at all; an uninstall is said once, quietly.
import type { GatehouseEvent } from '../../shared/contract';
import { CLI_NAME } from '../../shared/hooked-clis';
import { LIMITS, clip, clipLeft, safeLine } from './text';

export interface HookNotice {
  key: string;
  /** Null: the hook is back or no longer watched; its notification, if shown, is withdrawn. */
  shown: { title: string; body: string; urgency: 'normal' | 'critical' } | null;
}

export const hookNoticeKey = (cli: string, file: string): string =>
  `hook:${cli}:${file}`.slice(0, 512);

/** What a hook's change says about its notification; null for any other event. */
export function hookNotice(event: GatehouseEvent): HookNotice | null {
  if (event.type !== 'hook_changed') return null;
  const key = hookNoticeKey(event.cli, event.file);
  const name = CLI_NAME[event.cli];
  // Said once, quietly: whoever ran uninstall (or removed the record) ended the watch.
  if (event.change === 'uninstalled')
    return {
      key,
      shown: {
        title: clip(`${name}'s hook is no longer watched`, LIMITS.title),
        body: [
          "Its install was removed from Gatehouse's record (gatehouse hook uninstall).",
          safeLine(clipLeft(event.file, LIMITS.line), LIMITS.line),
        ].join('\n'),
        urgency: 'normal',
      },
    };
  const status = event.watch?.status;
  if (status === undefined || status === 'intact') return { key, shown: null };
  const [first, ...rest] = event.watch?.changes ?? [];
  const more = rest.length > 0 ? ` (+${rest.length} more)` : '';
  return {
    key,
    shown: {
      title: clip(
        status === 'lost'
          ? `${name} is no longer gated by Gatehouse`
          : `${name}'s hook was weakened`,
        LIMITS.title,
      ),
      body: [
        safeLine(`${first ?? 'its settings changed'}${more}`, LIMITS.line),
        safeLine(clipLeft(event.file, LIMITS.line), LIMITS.line),
        'Run gatehouse hook install to put it back.',
      ].join('\n'),
      urgency: status === 'lost' ? 'critical' : 'normal',
    },
  };
}

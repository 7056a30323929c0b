import type { SessionInfo } from '../../../shared/domain';
import type { ConfigOption } from '../../../shared/session-config';
import { useApi } from '../api/context';
import { useAction, type ShowError } from '../ui/use-action';

const REFUSED = ' (does not ask: not offered)';

/**
 * The agent's own session options (a model, a reasoning level, …), beside the permission mode. A
 * value that would let the agent act without asking is shown but cannot be chosen: the core refuses
 * it too.
 */
export function SessionOptions({ session, onError }: { session: SessionInfo; onError: ShowError }) {
  const api = useApi();
  const { busy, run } = useAction(onError);
  const options = session.configOptions ?? [];
  if (options.length === 0) return null;

  const set = (option: ConfigOption, value: string | boolean) =>
    void run(option.id, () =>
      api.call('setSessionOption', { sessionId: session.sessionId, configId: option.id, value }),
    );

  return (
    <>
      {options.map((option) => {
        const title = option.description;
        if (option.type === 'boolean') {
          return (
            <label key={option.id} className="session-option-toggle" title={title}>
              <input
                type="checkbox"
                checked={option.currentValue}
                disabled={busy !== null || (option.refusedOn && !option.currentValue)}
                onChange={(e) => set(option, e.target.checked)}
              />
              {option.name}
              {option.refusedOn && !option.currentValue ? REFUSED : ''}
            </label>
          );
        }
        const listed = option.values.some((v) => v.value === option.currentValue);
        return (
          <label key={option.id} title={title}>
            {option.name}
            <select
              value={option.currentValue}
              disabled={busy !== null}
              onChange={(e) => set(option, e.target.value)}
            >
              {!listed && <option value={option.currentValue}>{option.currentValue}</option>}
              {option.values.map((v) => (
                <option key={v.value} value={v.value} disabled={v.refused}>
                  {v.name}
                  {v.refused ? REFUSED : ''}
                </option>
              ))}
            </select>
          </label>
        );
      })}
    </>
  );
}

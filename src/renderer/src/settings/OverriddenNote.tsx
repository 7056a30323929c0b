// A user setting the administrator's managed policy forbids: the managed value is in force, and the
// setting says so where it is shown, with what the settings file asked for.
import type { ManagedOverride } from '../../../shared/managed-settings';
import { LockIcon } from '../components/icons';
import './OverriddenNote.css';

/** A value as a person reads it in a sentence. */
export const overrideWords = (value: ManagedOverride['user']): string =>
  value === true ? 'on' : value === false ? 'off' : value;

/** Beside one setting: nothing unless the administrator's value replaced the user's. */
export function OverriddenNote({
  overridden,
  setting,
}: {
  overridden: readonly ManagedOverride[];
  setting: string;
}) {
  const override = overridden.find((o) => o.setting === setting);
  if (!override) return null;
  return (
    <small className="sv-overridden" data-setting={setting}>
      <LockIcon /> Set by your administrator: {overrideWords(override.managed)} (your settings file
      says {overrideWords(override.user)})
    </small>
  );
}

/** Above the sections: every replaced setting at once, the rules' ids included. */
export function OverriddenNotice({
  overridden,
  path,
}: {
  overridden: readonly ManagedOverride[];
  path: string | undefined;
}) {
  if (overridden.length === 0) return null;
  return (
    <section className="sv-overridden-notice" role="status" aria-labelledby="sv-overridden">
      <h3 id="sv-overridden">
        <LockIcon /> Set by your administrator:{' '}
        {overridden.length === 1 ? 'one' : overridden.length} of your settings{' '}
        {overridden.length === 1 ? 'is' : 'are'} replaced
      </h3>
      <p>
        Your administrator&apos;s policy
        {path ? (
          <>
            {' '}
            (<code>{path}</code>)
          </>
        ) : null}{' '}
        does not allow
        {overridden.length === 1 ? ' it' : ' them'}; its values are in force instead. Your settings
        file is left as it is.
      </p>
      <ul>
        {overridden.map((o) => (
          <li key={o.setting}>
            <code>{o.setting}</code>: {overrideWords(o.managed)}{' '}
            <span className="dim">(yours: {overrideWords(o.user)})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

import { PERMISSION_MODES } from '../../../shared/rules';
import { MODE_LABEL } from '../history/words';

/** The permission modes, as the options of a select, in their order. */
export function ModeOptions() {
  return (
    <>
      {PERMISSION_MODES.map((m) => (
        <option key={m} value={m}>
          {MODE_LABEL[m]}
        </option>
      ))}
    </>
  );
}

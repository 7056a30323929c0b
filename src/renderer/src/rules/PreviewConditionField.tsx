// An allow rule's condition on the command's preview: it allows only once the preview finished and
// changed nothing outside the folders named here (none: nothing at all). Until then, or when the
// preview changed anything else, the request is asked as if the rule did not exist.
import { useId } from 'react';
import { Field } from '../ui/Field';
import type { RuleDraft } from './rule-draft';

interface Props {
  draft: Pick<RuleDraft, 'previewOnly' | 'previewFolders'>;
  onChange(change: Partial<Pick<RuleDraft, 'previewOnly' | 'previewFolders'>>): void;
}

export function PreviewConditionField({ draft, onChange }: Props) {
  const uid = useId();
  return (
    <fieldset className="re-preview-when">
      <legend className="visually-hidden">Preview condition</legend>
      <label className="re-check">
        <input
          type="checkbox"
          checked={draft.previewOnly}
          onChange={(e) => onChange({ previewOnly: e.target.checked })}
          aria-describedby={`${uid}-hint`}
        />
        <span>Only when its preview changes nothing outside these folders</span>
      </label>
      {draft.previewOnly && (
        <Field label="Folders, one per line (empty: it may change nothing)" className="re-field">
          <textarea
            className="mono"
            rows={2}
            value={draft.previewFolders}
            onChange={(e) => onChange({ previewFolders: e.target.value })}
            placeholder={'build\ndist'}
            spellCheck={false}
            aria-describedby={`${uid}-hint`}
          />
        </Field>
      )}
      <p id={`${uid}-hint`} className="re-hint">
        Folders are relative to the session folder. While the preview runs, when it was cut short or
        not run, or when it changed anything else, you are asked. A command can tell it is being
        previewed and do otherwise when it runs for real: keep this for commands you know.
      </p>
    </fieldset>
  );
}

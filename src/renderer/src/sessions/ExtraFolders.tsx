import { MAX_ADDITIONAL_DIRECTORIES } from '../../../shared/domain';

/** The lines of the field that name a folder: trimmed, blank ones left out. */
export function extraFolderLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * More folders for the session besides its own (ACP `additionalDirectories`): typed by the person,
 * one absolute path per line, folded away until asked for. The core checks each as it checks the
 * folder and says which one it refuses.
 */
export function ExtraFolders({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (text: string) => void;
  disabled: boolean;
}) {
  const count = extraFolderLines(value).length;
  const tooMany = count > MAX_ADDITIONAL_DIRECTORIES;
  return (
    <details className="extra-folders">
      <summary>More folders{count > 0 ? ` (${count})` : ''}</summary>
      <label>
        Also work in, one absolute path per line
        <textarea
          value={value}
          onChange={(e) => onChange(e.target.value)}
          rows={Math.min(Math.max(count + 1, 2), MAX_ADDITIONAL_DIRECTORIES)}
          placeholder="/absolute/path/to/another/folder"
          spellCheck={false}
          disabled={disabled}
          aria-invalid={tooMany ? true : undefined}
          aria-describedby="extra-folders-hint"
        />
      </label>
      <p id="extra-folders-hint" className={tooMany ? 'error' : 'dim'}>
        {tooMany
          ? `At most ${MAX_ADDITIONAL_DIRECTORIES} folders.`
          : 'Each one is writable for the agent, like the folder, with its files that run later ' +
            'protected. Only an agent that says it takes more folders is started with them.'}
      </p>
    </details>
  );
}

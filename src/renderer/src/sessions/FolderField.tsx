import { useApi } from '../api/context';

/**
 * The folder of a session to start: typed, chosen among the folders sessions last started in, or
 * picked with the desktop's own picker (offered only where there is one). What is wrong with it is
 * said under the field.
 */
export function FolderField({
  value,
  onChange,
  onCheck,
  problem,
  recent,
  disabled,
}: {
  value: string;
  onChange: (path: string) => void;
  /** Called when the person leaves the field or picks a folder: the core checks it. */
  onCheck: (path: string) => void;
  problem: string | null;
  recent: string[];
  disabled: boolean;
}) {
  const api = useApi();
  const choose = api.chooseFolder;
  const take = (path: string) => {
    onChange(path);
    onCheck(path);
  };

  return (
    <div className="folder-field grow">
      <div className="row">
        <label className="grow">
          Folder
          <input
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onBlur={() => value.trim() && onCheck(value.trim())}
            placeholder="/absolute/path/to/project"
            spellCheck={false}
            disabled={disabled}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'folder-problem' : undefined}
          />
        </label>
        {choose && (
          <button
            type="button"
            disabled={disabled}
            onClick={() =>
              void choose()
                .then((path) => path && take(path))
                .catch(() => undefined)
            }
          >
            Choose…
          </button>
        )}
      </div>
      {problem && (
        <p className="error" id="folder-problem" role="alert">
          {problem}
        </p>
      )}
      {recent.length > 0 && (
        <div className="recent-folders" role="group" aria-label="recently used">
          <span className="dim">Recent:</span>
          {recent.map((path) => (
            <button
              key={path}
              type="button"
              className="ui-button-link"
              disabled={disabled}
              onClick={() => take(path)}
              title={path}
            >
              {path}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

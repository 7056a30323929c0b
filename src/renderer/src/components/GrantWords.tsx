import type { Grant } from '../../../shared/rules';
import { grantParts, type GrantWordsOptions } from '../../../shared/grant-words';
import { Revealed } from './Revealed';

/** A grant as one sentence, its commands and paths set as code, every hidden character shown. */
export function GrantWords({ grant, ...options }: { grant: Grant } & GrantWordsOptions) {
  return (
    <span className="grant-words">
      {grantParts(grant, options).map((part, i) =>
        part.code ? (
          <code key={i}>
            <Revealed text={part.text} />
          </code>
        ) : (
          <Revealed key={i} text={part.text} />
        ),
      )}
    </span>
  );
}

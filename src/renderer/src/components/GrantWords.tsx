import type { Grant } from '../../../shared/rules';
import { grantParts, type GrantPart, type GrantWordsOptions } from '../../../shared/grant-words';
import { Revealed } from './Revealed';

/** A grant as one sentence, its commands and paths set as code, every hidden character shown. */
export function GrantWords({ grant, ...options }: { grant: Grant } & GrantWordsOptions) {
  return <GrantSentence parts={grantParts(grant, options)} />;
}

/** A grant's sentence from its parts (one being made, say, before it exists). */
export function GrantSentence({ parts }: { parts: GrantPart[] }) {
  return (
    <span className="grant-words">
      {parts.map((part, i) =>
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

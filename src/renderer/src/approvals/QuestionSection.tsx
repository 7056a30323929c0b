// An agent's question in the dialog: a form built from the question's own schema, or a link the
// person opens themselves. The agent's words are shown as its words, never as Gatehouse's; a link
// is never opened for the person, and its host is what they read first.
import { useId, useState, type FormEvent } from 'react';
import type { PendingApproval } from '../../../shared/domain';
import type { PendingQuestion, QuestionField, QuestionForm } from '../../../shared/question';
import { useApi } from '../api/context';
import { Revealed } from '../components/Revealed';
import { KindBadge } from './KindBadge';
import { answerOf, initialDraft, type Draft, type DraftValue } from './question-form';
import { shortSession } from './RequestDetails';
import './QuestionSection.css';

interface Props {
  approval: PendingApproval & { question: PendingQuestion };
  titleId: string;
  /** The buttons are usable: the core is heard from and the click guard is over. */
  armed: boolean;
  /** Told what happened, for the dialog's status line. */
  onStatus: (tone: 'info' | 'error', text: string) => void;
  onAnswered: () => void;
}

export function QuestionSection({ approval, titleId, armed, onStatus, onAnswered }: Props) {
  const { question } = approval;
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState<Draft>(() =>
    question.mode === 'form' ? initialDraft(question.form) : {},
  );
  const [tried, setTried] = useState(false);
  const form = question.mode === 'form' ? question.form : null;
  const checked = form ? answerOf(form, draft) : null;
  const problems = tried && checked ? checked.problems : {};

  const send = async (action: 'accept' | 'decline') => {
    if (!armed || busy) return;
    if (action === 'accept' && checked && Object.keys(checked.problems).length > 0) {
      setTried(true);
      const first = form?.fields.find((f) => checked.problems[f.name]);
      if (first) document.getElementById(fieldId(titleId, first.name))?.focus();
      return;
    }
    setBusy(true);
    try {
      await api.call(
        'answerQuestion',
        action === 'accept'
          ? {
              requestId: approval.requestId,
              action,
              ...(checked ? { content: checked.content } : {}),
            }
          : { requestId: approval.requestId, action },
      );
      onStatus('info', action === 'accept' ? 'Answer sent.' : 'Question declined.');
      onAnswered();
    } catch (error) {
      onStatus('error', (error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send('accept');
  };

  return (
    <form className="gh-question-form" onSubmit={onSubmit} noValidate>
      <div className="gh-scroll">
        <article className="gh-request gh-question" aria-labelledby={titleId}>
          <header className="gh-request-head">
            <div className="gh-request-eyebrow">
              <KindBadge kind="other" question />
              <span>
                <strong>{approval.agentName}</strong> asks
                {question.mode === 'url' ? ' you to open a link' : ''}
              </span>
            </div>
            <h2 id={titleId} className="gh-request-title gh-question-title">
              {question.mode === 'form' && question.form.title ? (
                <Revealed text={question.form.title} />
              ) : question.mode === 'url' ? (
                <>
                  Open a page on <span className="gh-question-host">{question.host}</span>
                </>
              ) : (
                'Answer the agent’s question'
              )}
            </h2>
            <div className="gh-request-meta">
              <span>
                session <code title={approval.sessionId}>{shortSession(approval.sessionId)}</code>
              </span>
            </div>
          </header>
          <figure className="gh-question-words">
            <figcaption>The agent’s words (it may not tell the truth)</figcaption>
            <blockquote>
              <Revealed text={question.message} />
            </blockquote>
          </figure>
          {form ? (
            <FormFields
              form={form}
              titleId={titleId}
              draft={draft}
              problems={problems}
              onChange={(name, value) => setDraft((d) => ({ ...d, [name]: value }))}
            />
          ) : question.mode === 'url' ? (
            <LinkPart requestId={approval.requestId} question={question} />
          ) : null}
        </article>
      </div>
      <footer className="gh-actions gh-question-actions">
        <div className="gh-actions-row">
          <p className="gh-guard-text" aria-live="polite">
            {question.mode === 'url'
              ? 'Accept once you have finished on that page; Gatehouse never opens it for you.'
              : 'The agent receives exactly these values.'}
          </p>
          <div className="gh-option-groups">
            <button
              type="button"
              className="gh-option kind-reject_once emphasis"
              data-default-option="true"
              aria-disabled={armed && !busy ? undefined : 'true'}
              onClick={() => void send('decline')}
            >
              <span className="gh-option-label">Decline</span>
            </button>
            <button
              type="submit"
              className="gh-option kind-allow_once"
              aria-disabled={armed && !busy ? undefined : 'true'}
            >
              <span className="gh-option-label">
                {question.mode === 'url' ? 'Done, accept' : 'Send answer'}
              </span>
            </button>
          </div>
        </div>
      </footer>
    </form>
  );
}

const fieldId = (titleId: string, name: string) =>
  `${titleId}-f-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;

function FormFields({
  form,
  titleId,
  draft,
  problems,
  onChange,
}: {
  form: QuestionForm;
  titleId: string;
  draft: Draft;
  problems: Record<string, string>;
  onChange: (name: string, value: DraftValue) => void;
}) {
  return (
    <div className="gh-question-fields">
      {form.description && (
        <p className="gh-question-description">
          <Revealed text={form.description} />
        </p>
      )}
      {problems['_'] && <p className="gh-question-error">{problems['_']}</p>}
      {form.fields.map((field) => (
        <Field
          key={field.name}
          id={fieldId(titleId, field.name)}
          field={field}
          value={draft[field.name]!}
          problem={problems[field.name]}
          onChange={(value) => onChange(field.name, value)}
        />
      ))}
    </div>
  );
}

function Field({
  id,
  field,
  value,
  problem,
  onChange,
}: {
  id: string;
  field: QuestionField;
  value: DraftValue;
  problem: string | undefined;
  onChange: (value: DraftValue) => void;
}) {
  const hintId = useId();
  const errorId = `${id}-error`;
  const described = [field.description ? hintId : '', problem ? errorId : '']
    .filter(Boolean)
    .join(' ');
  const label = (
    <>
      <Revealed text={field.title ?? field.name} />
      {field.required && <span className="gh-question-required"> (required)</span>}
    </>
  );
  const common = {
    id,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': described || undefined,
    'aria-required': field.required || undefined,
  };
  let input;
  if (field.type === 'boolean') {
    input = (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
      />
    );
  } else if (field.type === 'array') {
    const ticked = Array.isArray(value) ? value : [];
    return (
      <fieldset className="gh-question-field" aria-describedby={described || undefined}>
        <legend>{label}</legend>
        {field.choices.map((choice) => (
          <label key={choice.value} className="gh-question-choice">
            <input
              type="checkbox"
              checked={ticked.includes(choice.value)}
              onChange={(e) =>
                onChange(
                  e.target.checked
                    ? [...ticked, choice.value]
                    : ticked.filter((v) => v !== choice.value),
                )
              }
            />
            <Revealed text={choice.title} />
          </label>
        ))}
        <Hint field={field} id={hintId} />
        {problem && <Problem id={errorId} text={problem} />}
      </fieldset>
    );
  } else if (field.type === 'string' && field.choices) {
    input = (
      <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
        {(!field.required || value === '') && <option value="">—</option>}
        {field.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.title}
          </option>
        ))}
      </select>
    );
  } else if (field.type === 'string') {
    const type = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };
    input = (
      <input
        {...common}
        type={field.format ? type[field.format] : 'text'}
        value={String(value)}
        minLength={field.minLength ?? undefined}
        maxLength={field.maxLength ?? undefined}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    input = (
      <input
        {...common}
        type="number"
        inputMode={field.type === 'integer' ? 'numeric' : 'decimal'}
        step={field.type === 'integer' ? 1 : 'any'}
        min={field.minimum ?? undefined}
        max={field.maximum ?? undefined}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className={`gh-question-field type-${field.type}`}>
      <label htmlFor={id}>{label}</label>
      {input}
      <Hint field={field} id={hintId} />
      {problem && <Problem id={errorId} text={problem} />}
    </div>
  );
}

function Hint({ field, id }: { field: QuestionField; id: string }) {
  if (!field.description) return null;
  return (
    <p id={id} className="gh-question-hint">
      <Revealed text={field.description} />
    </p>
  );
}

function Problem({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} className="gh-question-error" role="alert">
      {text}
    </p>
  );
}

/** The host first, the whole address as plain text, and a link the person follows themselves. */
function LinkPart({
  requestId,
  question,
}: {
  requestId: string;
  question: Extract<PendingQuestion, { mode: 'url' }>;
}) {
  const api = useApi();
  return (
    <div className="gh-question-link">
      <p className="gh-question-link-host">
        <span>Leads to</span> <strong>{question.host}</strong>
      </p>
      <p className="gh-question-link-url">
        <code>{question.url}</code>
      </p>
      {api.openQuestionLink ? (
        <button
          type="button"
          className="gh-question-open"
          onClick={() => void api.openQuestionLink?.(requestId)}
        >
          Open link
        </button>
      ) : (
        <a
          className="gh-question-open"
          href={question.url}
          target="_blank"
          rel="noopener noreferrer"
        >
          Open link
        </a>
      )}
    </div>
  );
}

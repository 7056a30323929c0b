import type { ComponentProps } from 'react';
import './Button.css';

/**
 * The looks a button takes besides the plain one (styles.css styles every `<button>`):
 * `primary` the one main action of a form or card, `ghost` a quiet secondary action, `danger` an
 * outlined destructive action, `danger-solid` a destructive action that has been confirmed once,
 * `allow` an approval, `link` a small text action inside dense UI.
 */
export type ButtonVariant = 'primary' | 'ghost' | 'danger' | 'danger-solid' | 'allow' | 'link';

type Props = ComponentProps<'button'> & { variant?: ButtonVariant };

/** A `<button>`, `type="button"` unless told otherwise, in one of the shared looks. */
export function Button({ variant, className, type = 'button', ...rest }: Props) {
  const classes = [variant && `ui-button-${variant}`, className].filter(Boolean).join(' ');
  return <button type={type} className={classes || undefined} {...rest} />;
}

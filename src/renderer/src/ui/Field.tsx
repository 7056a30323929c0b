import type { ReactNode } from 'react';
import './Field.css';

interface Props {
  label: ReactNode;
  /** The form's own class, for how its controls are sized. */
  className?: string;
  /** The control, and a hint under it if any. */
  children: ReactNode;
}

/** A form control under its small label; the whole is the label, so a click focuses the control. */
export function Field({ label, className, children }: Props) {
  return (
    <label className={className ? `ui-field ${className}` : 'ui-field'}>
      <span>{label}</span>
      {children}
    </label>
  );
}

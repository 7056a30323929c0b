import type { ComponentProps } from 'react';
import './Stack.css';

/** A list drawn as a column of items, without bullets or indents; its class sets the gap. */
export function Stack({ className, ...rest }: ComponentProps<'ul'>) {
  return <ul className={className ? `ui-stack ${className}` : 'ui-stack'} {...rest} />;
}

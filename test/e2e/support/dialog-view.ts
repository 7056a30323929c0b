// Parts of the dialog the specs look at, found as a person finds them: by role and name.
import type { Locator } from '@playwright/test';
import type { WarningCode } from '../../../src/shared/domain';

/** The queue of pending requests beside the dialog. */
export const queue = (view: Locator) => view.getByRole('navigation', { name: 'Pending requests' });

/** A warning the dialog shows, by its code. */
export const warning = (view: Locator, code: WarningCode) =>
  view.locator(`.gh-warning[data-code="${code}"]`);

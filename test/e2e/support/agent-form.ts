// Settings → Agents as a person fills it from a browser: the form's fields, and the code a new
// command waits for, read where Gatehouse runs (the headless process's terminal).
import { expect, type Locator, type Page } from '@playwright/test';
import type { Headless } from '../headless';

export interface AgentFields {
  id: string;
  name: string;
  command: string;
  args?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
}

/** The Agents card of Settings. */
export const agentsCard = (page: Page): Locator =>
  page.getByRole('region', { name: 'Agents', exact: true });

/** Types each field as a person would: arguments one per line, variables as NAME=value lines. */
export async function fillAgentForm(form: Locator, agent: AgentFields): Promise<void> {
  await form.getByRole('textbox', { name: /^Id/ }).fill(agent.id);
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(agent.name);
  await form.getByRole('textbox', { name: /^Command/ }).fill(agent.command);
  await form
    .getByRole('textbox', { name: 'Arguments, one per line' })
    .fill((agent.args ?? []).join('\n'));
  await form.getByRole('textbox', { name: /^Environment, NAME=value per line/ }).fill(
    Object.entries(agent.env ?? {})
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
}

/** Types the code the headless terminal printed for the change waiting now, and confirms it. */
export async function typeTheCode(page: Page, headless: Headless): Promise<void> {
  const waiting = page.getByRole('region', {
    name: 'Waiting for confirmation: enter the code shown where Gatehouse runs',
  });
  await expect(waiting).toBeVisible();
  await expect.poll(() => headless.output()).toMatch(/code \d{3}-\d{3}/);
  const codes = [...headless.output().matchAll(/code (\d{3}-\d{3})/g)];
  await waiting.getByRole('textbox', { name: 'Code' }).fill(codes.at(-1)![1]!);
  await waiting.getByRole('button', { name: 'Confirm' }).click();
  await expect(waiting).toBeHidden();
}

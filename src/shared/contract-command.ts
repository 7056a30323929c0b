// How a command of the contract is declared, and the small shapes many commands share.
import { z } from 'zod';
import { Uuid } from './domain';

export const Empty = z.object({}).strict();
export const RequestRef = z.object({ requestId: Uuid }).strict();
export const Ok = z.object({ ok: z.literal(true) });

type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PUT';
export interface CommandSpec<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
  /** Route; `:name` segments fill the input field of that name. GET reads the rest from the query. */
  http: {
    method: HttpMethod;
    path: `/api/${string}`;
    status?: (output: z.output<O>) => number;
    /** 'link': callable with a single-use approval link (`Authorization: Link <token>`) only. */
    auth?: 'bearer' | 'link';
  };
  /** What it changes, for the docs and the settings of who may call it. */
  summary: string;
}
export const command = <I extends z.ZodType, O extends z.ZodType>(spec: CommandSpec<I, O>) => spec;

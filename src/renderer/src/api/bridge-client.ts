import {
  commands,
  Event,
  HistoryExportOutcome,
  type HistoryExportInput,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type GatehouseApi,
  type GatehouseBridge,
  type GatehouseEvent,
} from '../../../shared/contract';
import { z } from 'zod';
import { ApiError } from './api-error';

const ChosenFolder = z.string().max(4096).nullable();

/** GatehouseApi over the preload bridge (Electron); validated against the contract like HTTP. */
export class BridgeApi implements GatehouseApi {
  readonly surface = 'dialog' as const;
  /** The desktop is this machine's person: paired by being Gatehouse itself. */
  readonly paired = true;

  readonly chooseFolder?: () => Promise<string | null>;
  readonly openQuestionLink?: (requestId: string) => Promise<void>;

  constructor(private readonly bridge: GatehouseBridge) {
    const pick = bridge.chooseFolder;
    if (pick) {
      this.chooseFolder = async () => {
        const result = await pick();
        if (!result.ok) throw new ApiError(result.error.name, result.error.message);
        return ChosenFolder.parse(result.result);
      };
    }
    const open = bridge.openQuestionLink;
    if (open) {
      this.openQuestionLink = async (requestId) => {
        const result = await open(requestId);
        if (!result.ok) throw new ApiError(result.error.name, result.error.message);
      };
    }
  }

  /** The desktop saves the export where the person chooses in its save dialog; null when cancelled. */
  async exportHistory(input: HistoryExportInput): Promise<HistoryExportOutcome | null> {
    const save = this.bridge.saveHistoryExport;
    if (!save) throw new ApiError('Unsupported', 'this window cannot save an export');
    const result = await save(input);
    if (!result.ok) throw new ApiError(result.error.name, result.error.message);
    return HistoryExportOutcome.nullable().parse(result.result);
  }

  async call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
    const method = this.bridge[name] as unknown as (
      input: CommandInput<N>,
    ) => ReturnType<GatehouseBridge[N]>;
    const result = await method(input);
    if (!result.ok) throw new ApiError(result.error.name, result.error.message);
    return commands[name].output.parse(result.result) as CommandOutput<N>;
  }

  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    return this.bridge.onEvent((raw) => {
      const parsed = Event.safeParse(raw);
      if (parsed.success) listener(parsed.data);
    });
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    listener(true);
    return () => {};
  }

  /** The desktop serves no web address; the code alone is shown. */
  pairingUrl(): null {
    return null;
  }
}

import type { GatehouseEvent } from '../../../shared/contract';
import { logger } from '../log/logger';

const log = logger('events');

export type EventListener = (event: GatehouseEvent) => void;

/** Fan-out of core events to every surface (SSE streams, IPC windows, notifications, tray). */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: GatehouseEvent): void {
    for (const listener of this.listeners) {
      // One broken surface must not stop the others from hearing about a request.
      try {
        listener(event);
      } catch (error) {
        log.error('event listener failed:', error);
      }
    }
  }
}

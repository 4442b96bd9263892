import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * A clean-up a worker runs every `intervalMs` while it is up (the unfinished documents, the interaction holds
 * left open, the mail never queued): started on bootstrap, stopped on shutdown, never keeping the process
 * alive. `sweep()` handles its own errors: a failed run is only tried again at the next tick.
 */
export abstract class PeriodicSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  protected constructor(private readonly intervalMs: number) {}

  abstract sweep(): Promise<number>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

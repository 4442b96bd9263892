/**
 * The flow engine: the flows by name, each with its state's schema, and the handlers they need (checked when the
 * engine is built: a flow naming an intent or effect with no handler stops the worker at boot). A turn is run by
 * run.ts; what handlers see of it is turn.ts; the handlers are registered in handlers/index.ts; the state is read
 * and migrated by state.ts.
 */

import { assertHandlers, varsOf } from './handlers';
import type { RunContext, RunResult } from './ports';
import { Run } from './run';
import { readState, STATE_VERSION, stateSchemaOf, type FlowState } from './state';
import type { Flow } from './types';

interface Registered {
  flow: Flow;
  schema: ReturnType<typeof stateSchemaOf>;
  keeps: ReadonlySet<string>;
}

/** Interprets flow definitions: asks, reads answers without an LLM, applies effects, tracks objectives. */
export class FlowEngine {
  private readonly flows = new Map<string, Registered>();

  constructor(flows: Flow[]) {
    assertHandlers(flows);
    for (const flow of flows) {
      this.flows.set(flow.name, { flow, schema: stateSchemaOf(flow), keeps: new Set(varsOf(flow)) });
    }
  }

  private registered(name: string): Registered {
    const found = this.flows.get(name);
    if (!found) throw new Error(`No flow named ${name}`);
    return found;
  }

  flow(name: string): Flow {
    return this.registered(name).flow;
  }

  has(name: string): boolean {
    return this.flows.has(name);
  }

  /** The stored state of a conversation with `name`, read with the flow's schema (older versions migrated). */
  read(name: string, raw: unknown): FlowState | undefined {
    const { flow, schema } = this.registered(name);
    return readState(raw, flow, schema);
  }

  async run(name: string, text: string, ctx: RunContext): Promise<RunResult> {
    const { flow, schema, keeps } = this.registered(name);
    const stored = readState(ctx.state, flow, schema);
    const state: FlowState = stored ?? { v: STATE_VERSION, flow: name, step: flow.start, vars: {} };
    const run = new Run(flow, state, ctx.ports, ctx.language, keeps);
    await run.handle(text, !stored);
    return { outputs: run.outputs, state: run.state };
  }
}

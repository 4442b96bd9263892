import type { Flow, LlmProvider, SparkInfo } from '@sparks/engine';
import { FlowPortsImpl, type PortDeps } from './flow-ports';

/** The instructions port: the model's paragraph when it writes one, undefined (the template) otherwise. */
describe('FlowPortsImpl.writeInstructions', () => {
  const spark: SparkInfo = { id: 's', name: 'Espiga', initialMessage: '', language: 'en', sysPrompt: '' };
  const ports = (llm: Pick<LlmProvider, 'writeInstructions'> | undefined, onLlmError?: (err: unknown) => void) =>
    new FlowPortsImpl(
      { llm: llm as LlmProvider | undefined, onLlmError } as PortDeps,
      'user-1',
      { name: 'builder' } as Flow,
      's',
    );

  it('answers what the model wrote', async () => {
    const writeInstructions = jest.fn().mockResolvedValue('Espiga is a bakery in Madrid; help with bread, warmly.');
    await expect(ports({ writeInstructions }).writeInstructions(spark)).resolves.toBe(
      'Espiga is a bakery in Madrid; help with bread, warmly.',
    );
    expect(writeInstructions).toHaveBeenCalledWith(spark);
  });

  it('answers undefined without a model, and when it fails (which is told)', async () => {
    await expect(ports(undefined).writeInstructions(spark)).resolves.toBeUndefined();
    const failure = new Error('language model timed out');
    const told: unknown[] = [];
    const failing = ports({ writeInstructions: () => Promise.reject(failure) }, (err) => told.push(err));
    await expect(failing.writeInstructions(spark)).resolves.toBeUndefined();
    expect(told).toEqual([failure]);
  });
});

import type { LlmProvider, SparkInfo } from '@sparks/engine';
import { ModelPortImpl } from './model-port';

/** The instructions port: the model's paragraph when it writes one, undefined (the template) otherwise. */
describe('ModelPortImpl.writeInstructions', () => {
  const spark: SparkInfo = { id: 's', name: 'Espiga', initialMessage: '', language: 'en', sysPrompt: '' };
  const port = (llm: Pick<LlmProvider, 'writeInstructions'> | undefined, onLlmError?: (err: unknown) => void) =>
    new ModelPortImpl({ llm: llm as LlmProvider | undefined, onLlmError });

  it('answers what the model wrote', async () => {
    const writeInstructions = jest.fn().mockResolvedValue('Espiga is a bakery in Madrid; help with bread, warmly.');
    await expect(port({ writeInstructions }).writeInstructions(spark)).resolves.toBe(
      'Espiga is a bakery in Madrid; help with bread, warmly.',
    );
    expect(writeInstructions).toHaveBeenCalledWith(spark);
  });

  it('answers undefined without a model, and when it fails (which is told)', async () => {
    await expect(port(undefined).writeInstructions(spark)).resolves.toBeUndefined();
    const failure = new Error('language model timed out');
    const told: unknown[] = [];
    const failing = port({ writeInstructions: () => Promise.reject(failure) }, (err) => told.push(err));
    await expect(failing.writeInstructions(spark)).resolves.toBeUndefined();
    expect(told).toEqual([failure]);
  });
});

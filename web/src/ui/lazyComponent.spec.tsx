import { act, render, screen } from '@testing-library/react';

import { lazyComponent } from './lazyComponent';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyComponent', () => {
  it('renders nothing until loaded, then the component, and downloads once', async () => {
    const importer = jest.fn(() => Promise.resolve(Hello));
    const lazy = lazyComponent(importer);
    function Host() {
      const Loaded = lazy.useLoaded();
      return Loaded ? <Loaded name="Ana" /> : <p>waiting</p>;
    }
    render(<Host />);
    expect(screen.getByText('waiting')).toBeInTheDocument();
    await act(async () => {
      await Promise.all([lazy.load(), lazy.load()]);
    });
    expect(screen.getByText('Hello Ana')).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed download instead of keeping the failure', async () => {
    const importer = jest
      .fn<Promise<typeof Hello>, []>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(Hello);
    const lazy = lazyComponent(importer);
    await expect(lazy.load()).rejects.toThrow('offline');
    await expect(lazy.load()).resolves.toBe(Hello);
    expect(importer).toHaveBeenCalledTimes(2);
  });
});

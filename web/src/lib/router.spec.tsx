import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { useNavigate, useSearchParams } from './router';

/** Counts how often `navigate` and `setSearchParams` change identity while the page stays mounted. */
function Page({ seen }: { seen: { navigate: Set<unknown>; setParams: Set<unknown> } }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  seen.navigate.add(navigate);
  seen.setParams.add(setParams);
  return (
    <>
      <p data-testid="where">{`${pathname}?${params.toString()}`}</p>
      <button type="button" onClick={() => void navigate('/spark/b')}>
        other spark
      </button>
      <button type="button" onClick={() => setParams((current) => (current.set('showPlans', 'true'), current))}>
        plans
      </button>
      <button type="button" onClick={() => void navigate(-1)}>
        back
      </button>
    </>
  );
}

function renderPage() {
  const seen = { navigate: new Set<unknown>(), setParams: new Set<unknown>() };
  render(
    <MemoryRouter initialEntries={['/spark/a']}>
      <Routes>
        <Route path="/spark/:id" element={<Page seen={seen} />} />
      </Routes>
    </MemoryRouter>,
  );
  return seen;
}

describe('useNavigate', () => {
  it('navigates, back too, and keeps its identity when the path changes (as the data router did)', () => {
    const seen = renderPage();
    act(() => screen.getByRole('button', { name: 'other spark' }).click());
    expect(screen.getByTestId('where')).toHaveTextContent('/spark/b?');
    act(() => screen.getByRole('button', { name: 'back' }).click());
    expect(screen.getByTestId('where')).toHaveTextContent('/spark/a?');
    expect(seen.navigate.size).toBe(1);
  });

  it('does not run an effect that lists it again on each navigation', () => {
    let runs = 0;
    function Watcher() {
      const navigate = useNavigate();
      useEffect(() => {
        runs += 1;
      }, [navigate]);
      return <button onClick={() => void navigate(`/p/${runs}`)}>go</button>;
    }
    render(
      <MemoryRouter initialEntries={['/p/0']}>
        <Routes>
          <Route path="/p/:n" element={<Watcher />} />
        </Routes>
      </MemoryRouter>,
    );
    const before = runs;
    act(() => screen.getByRole('button', { name: 'go' }).click());
    act(() => screen.getByRole('button', { name: 'go' }).click());
    expect(runs).toBe(before);
  });
});

describe('useSearchParams', () => {
  it('sets the query from a function of the current one; the setter changes only with the query', () => {
    const seen = renderPage();
    act(() => screen.getByRole('button', { name: 'other spark' }).click());
    expect(seen.setParams.size).toBe(1);
    act(() => screen.getByRole('button', { name: 'plans' }).click());
    expect(screen.getByTestId('where')).toHaveTextContent('/spark/b?showPlans=true');
    expect(seen.setParams.size).toBe(2);
  });
});

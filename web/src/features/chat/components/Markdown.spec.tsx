import { render, screen, within } from '@testing-library/react';

import Markdown from './Markdown';

describe('Markdown replies (spec §5)', () => {
  it('renders tables, task lists and strikethrough (GitHub flavour)', () => {
    const { container } = render(
      <Markdown
        content={[
          '| Plan | Price |',
          '| --- | --- |',
          '| Ruby | 45 € |',
          '| Emerald | 90 € |',
          '',
          '- [x] Describe the business',
          '- [ ] Upload documents',
          '',
          'Old price: ~~120 €~~',
        ].join('\n')}
      />,
    );
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('columnheader', { name: 'Plan' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Emerald' })).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toBeChecked();
    expect(boxes[1]).not.toBeChecked();
    expect(container.querySelector('del')).toHaveTextContent('120 €');
  });

  it('opens allowed links in a new tab with rel="noopener noreferrer"', () => {
    render(
      <Markdown content="[site](https://example.com) [mail](mailto:hola@example.com) [page](/spark/1) [top](#plans) https://auto.example.com" />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com',
      'mailto:hola@example.com',
      '/spark/1',
      '#plans',
      'https://auto.example.com',
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('empties javascript:, data:, vbscript: and file: addresses in links and images', () => {
    const { container } = render(
      <Markdown
        content={[
          '[a](javascript:alert(1)) [b](data:text/html,x) [c](vbscript:msgbox) [d](file:///etc/passwd)',
          '',
          '![pic](data:image/png;base64,AAAA) ![ok](https://example.com/a.png)',
        ].join('\n')}
      />,
    );
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(screen.getByText('a')).not.toHaveAttribute('href');
    const images = [...container.querySelectorAll('img')];
    expect(images.map((img) => img.getAttribute('src'))).toEqual(['https://example.com/a.png']);
    expect(container.innerHTML).not.toMatch(/javascript:|data:|vbscript:|file:/);
  });

  it('shows raw HTML as text, never as markup', () => {
    const { container } = render(<Markdown content={'<img src=x onerror="alert(1)"> <b>bold</b>'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });
});

import { render, screen, within } from '@testing-library/react';

import Markdown from './Markdown';

describe('Markdown replies (docs/product.md §5)', () => {
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
          '![pic](data:image/png;base64,AAAA) ![ok](/a.png)',
        ].join('\n')}
      />,
    );
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(screen.getByText('a')).not.toHaveAttribute('href');
    expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual(['/a.png']);
    expect(screen.getByText('pic')).not.toHaveAttribute('href');
    expect(container.innerHTML).not.toMatch(/javascript:|data:|vbscript:|file:/);
  });

  it('loads no image from another origin: it becomes a link to open, and only same-origin images load', () => {
    const { container } = render(
      <Markdown
        content={[
          '![logo](https://evil.example/x.png) ![](http://127.0.0.2:9/x.png) ![t](//evil.example/y.png)',
          '',
          `![here](/api/v1/logo.png) ![same](${window.location.origin}/z.png)`,
        ].join('\n')}
      />,
    );
    expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      '/api/v1/logo.png',
      `${window.location.origin}/z.png`,
    ]);
    const links = screen.getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['logo', 'https://evil.example/x.png'],
      ['http://127.0.0.2:9/x.png', 'http://127.0.0.2:9/x.png'],
      ['t', '//evil.example/y.png'],
    ]);
    for (const link of links) expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows raw HTML as text, never as markup', () => {
    const { container } = render(<Markdown content={'<img src=x onerror="alert(1)"> <b>bold</b>'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });
});

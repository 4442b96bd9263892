// Reads a JSON array of markdown texts on stdin and prints, for each, what the SPA's parser
// (micromark with GFM, as react-markdown and remark-gfm use it) makes of it: the node types that
// can carry markup or a destination, and the text a reader sees. A child process because these
// packages are ESM-only and the Jest projects run CommonJS.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;

const trees = JSON.parse(input).map((markdown) => {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const nodes = [];
  const walk = (node) => {
    if (
      ['html', 'image', 'imageReference', 'link', 'linkReference', 'definition', 'code', 'inlineCode'].includes(
        node.type,
      )
    ) {
      nodes.push({ type: node.type, url: node.url ?? null, value: node.value ?? null });
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return { nodes, text: toString(tree) };
});
process.stdout.write(JSON.stringify(trees));

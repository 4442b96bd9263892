'use strict';
// The suite's OpenAI-compatible server (test/integration/support/openai-server.js) in a process of its
// own, for bench/scale.mjs: its replies then do not wait behind the benchmark's own clients for the
// CPU. Argument: the fixed wait per completion in ms. Prints its URL on stdout; answers an IPC message
// 'count' with the number of completions asked so far.
const path = require('node:path');
const { startOpenAiServer } = require(path.join(__dirname, '..', '..', 'test/integration/support/openai-server.js'));

startOpenAiServer({ latencyMs: Number(process.argv[2] ?? 0) }).then((server) => {
  process.on('message', (m) => {
    if (m === 'count') process.send({ count: server.requests.length });
  });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
  process.stdout.write(`${server.url}\n`);
});

// Preloaded with `--require` (bench/api.mjs --profile <dir>): a V8 CPU profile of the whole process,
// written to $CPU_PROFILE_DIR/<pid>.cpuprofile when it exits (NODE_OPTIONS refuses --cpu-prof).
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');
process.on('exit', () => {
  // The main thread's session answers synchronously.
  session.post('Profiler.stop', (err, result) => {
    if (!err)
      fs.writeFileSync(
        path.join(process.env.CPU_PROFILE_DIR, `${process.pid}.cpuprofile`),
        JSON.stringify(result.profile),
      );
  });
});

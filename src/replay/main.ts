import { parseArgs } from 'node:util';
import { createReplayServer } from './server.js';

/**
 * `npm run replay -- [--port 4010] [--dir fixtures/replay] [--delay-ms N] [--jitter-ms N]
 *  [--error-rate R] [--hang-rate R] [--blocked-rate R]`
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    dir: { type: 'string', default: 'fixtures/replay' },
    'delay-ms': { type: 'string', default: '0' },
    'jitter-ms': { type: 'string', default: '0' },
    'error-rate': { type: 'string', default: '0' },
    'hang-rate': { type: 'string', default: '0' },
    'blocked-rate': { type: 'string', default: '0' },
  },
});
const server = createReplayServer(values.dir!, {
  delayMs: Number(values['delay-ms']),
  jitterMs: Number(values['jitter-ms']),
  errorRate: Number(values['error-rate']),
  hangRate: Number(values['hang-rate']),
  blockedRate: Number(values['blocked-rate']),
});
server.listen(Number(values.port), values.host, () => {
  console.log(`Replay upstream on http://${values.host}:${values.port} serving ${values.dir}`);
  console.log(`Point live keys at it: AIRBNB_BASE_URL=http://${values.host}:${values.port}/airbnb (likewise BOOKING_, VRBO_, GOOGLE_HOTELS_)`);
});

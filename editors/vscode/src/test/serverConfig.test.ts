import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { liveSettings, serverLaunch } from '../serverConfig';

const defaults = { path: 'cuda-access-lint', buildDirectory: '', inlayHints: false, extraArgs: [] };

test('the server starts with --lsp, and -p when a build directory is set', () => {
  assert.deepEqual(serverLaunch(defaults).args, ['--lsp']);
  const l = serverLaunch({ ...defaults, buildDirectory: 'build', extraArgs: ['--checks=-*,shared-bank-conflict'] },
                         '/home/me/proj');
  assert.equal(l.command, 'cuda-access-lint');
  assert.deepEqual(l.args, ['--lsp', '-p', '/home/me/proj/build', '--checks=-*,shared-bank-conflict']);
  assert.deepEqual(serverLaunch({ ...defaults, buildDirectory: '/abs/build' }, '/w').args,
                   ['--lsp', '-p', '/abs/build']);
});

test('inlay hints are an initialization option, off by default', () => {
  assert.deepEqual(serverLaunch(defaults).initializationOptions, { inlayHints: false });
  assert.deepEqual(serverLaunch({ ...defaults, inlayHints: true }).initializationOptions,
                   { inlayHints: true });
  assert.deepEqual(liveSettings({ ...defaults, inlayHints: true }),
                   { 'cuda-access-lint': { inlayHints: true } });
});

// The arguments the extension passes, given to the real server (CAL_TOOL:
// the built cuda-access-lint; skipped without): it initializes with the
// extension's options and offers what the extension relies on.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import * as rpc from 'vscode-jsonrpc/node';

import { serverLaunch } from '../serverConfig';

const tool = process.env.CAL_TOOL;

test('the server accepts the extension\'s command line and options',
     { skip: !tool || !existsSync(tool) ? 'CAL_TOOL is not set to the built tool' : false },
     async () => {
  const launch = serverLaunch({ path: tool!, buildDirectory: '', inlayHints: true, extraArgs: [] });
  const child = spawn(launch.command, launch.args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout!), new rpc.StreamMessageWriter(child.stdin!));
  connection.listen();
  const init: any = await connection.sendRequest('initialize', {
    processId: process.pid, rootUri: null, capabilities: {},
    initializationOptions: launch.initializationOptions,
  });
  assert.equal(init.serverInfo.name, 'cuda-access-lint');
  assert.equal(init.capabilities.hoverProvider, true);
  assert.equal(init.capabilities.inlayHintProvider, true);
  assert.deepEqual(init.capabilities.codeActionProvider.codeActionKinds,
                   ['quickfix', 'refactor.rewrite']);
  await connection.sendRequest('shutdown');
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await connection.sendNotification('exit');
  assert.equal(await exited, 0);
  connection.dispose();
});

// activate() with stand-ins for the VS Code API and the language client
// (no VS Code download): the client it starts, and what a settings change
// does.

import * as assert from 'node:assert/strict';
import { test } from 'node:test';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Module = require('module');

interface Made { name: string; server: any; client: any; started: number; stopped: number; sent: any[] }
const made: Made[] = [];
let settings: Record<string, unknown> = {};
let configListener: ((e: any) => Promise<void>) | undefined;
const commands: Record<string, () => Promise<void>> = {};

const fakeVscode = {
  workspace: {
    getConfiguration: (section: string) => ({
      get: (key: string, def: unknown) => (key in settings ? settings[key] : def),
    }),
    workspaceFolders: [{ uri: { fsPath: '/work/proj' } }],
    onDidChangeConfiguration: (f: (e: any) => Promise<void>) => {
      configListener = f;
      return { dispose() {} };
    },
  },
  commands: {
    registerCommand: (name: string, f: () => Promise<void>) => {
      commands[name] = f;
      return { dispose() {} };
    },
  },
};

class FakeLanguageClient {
  m: Made;
  constructor(id: string, name: string, server: any, client: any) {
    this.m = { name, server, client, started: 0, stopped: 0, sent: [] };
    made.push(this.m);
  }
  async start() { this.m.started++; }
  async stop() { this.m.stopped++; }
  async sendNotification(method: string, params: any) { this.m.sent.push({ method, params }); }
}

const originalLoad = Module._load;
Module._load = function (request: string, ...rest: unknown[]) {
  if (request === 'vscode')
    return fakeVscode;
  if (request === 'vscode-languageclient/node')
    return { LanguageClient: FakeLanguageClient, TransportKind: { stdio: 0 } };
  return originalLoad.call(this, request, ...rest);
};

// eslint-disable-next-line @typescript-eslint/no-var-requires
const extension = require('../extension');

test('activation starts the server for cuda-cpp files with the settings', async () => {
  settings = { path: '/opt/cal/bin/cuda-access-lint', buildDirectory: 'build', inlayHints: true };
  const context = { subscriptions: [] as unknown[] };
  await extension.activate(context);
  assert.equal(made.length, 1);
  const m = made[0];
  assert.equal(m.started, 1);
  assert.equal(m.server.command, '/opt/cal/bin/cuda-access-lint');
  assert.deepEqual(m.server.args, ['--lsp', '-p', '/work/proj/build']);
  assert.deepEqual(m.client.documentSelector, [{ scheme: 'file', language: 'cuda-cpp' }]);
  assert.deepEqual(m.client.initializationOptions, { inlayHints: true });
  assert.equal(context.subscriptions.length, 2);

  // Inlay hints: sent to the running server.
  settings = { ...settings, inlayHints: false };
  await configListener!({ affectsConfiguration: (s: string) =>
    s === 'cudaAccessLint' || s === 'cudaAccessLint.inlayHints' });
  assert.deepEqual(m.sent, [{ method: 'workspace/didChangeConfiguration',
                              params: { settings: { 'cuda-access-lint': { inlayHints: false } } } }]);
  assert.equal(made.length, 1);

  // The build directory: a new server.
  settings = { ...settings, buildDirectory: 'out' };
  await configListener!({ affectsConfiguration: (s: string) =>
    s === 'cudaAccessLint' || s === 'cudaAccessLint.buildDirectory' });
  assert.equal(m.stopped, 1);
  assert.equal(made.length, 2);
  assert.deepEqual(made[1].server.args, ['--lsp', '-p', '/work/proj/out']);

  await commands['cudaAccessLint.restart']();
  assert.equal(made.length, 3);
  await extension.deactivate();
  assert.equal(made[2].stopped, 1);
});

// cuda-access-lint for VS Code: starts `cuda-access-lint --lsp` for CUDA
// files (beside the C/C++ or clangd extension, which keep their own
// server), with the build directory (-p) and inlay hints from the settings.

import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

import {
  configurationSection,
  documentSelector,
  liveSettings,
  restartSettings,
  serverLaunch,
  Settings,
} from './serverConfig';

let client: LanguageClient | undefined;

function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('cudaAccessLint');
  return {
    path: c.get<string>('path', 'cuda-access-lint'),
    buildDirectory: c.get<string>('buildDirectory', ''),
    inlayHints: c.get<boolean>('inlayHints', false),
    extraArgs: c.get<string[]>('extraArgs', []),
  };
}

function workspaceFolder(): string | undefined {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

export function createClient(settings: Settings): LanguageClient {
  const launch = serverLaunch(settings, workspaceFolder());
  const serverOptions: ServerOptions = {
    command: launch.command,
    args: launch.args,
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    initializationOptions: launch.initializationOptions,
  };
  return new LanguageClient('cuda-access-lint', 'cuda-access-lint',
                            serverOptions, clientOptions);
}

async function start(): Promise<void> {
  client = createClient(readSettings());
  await client.start();
}

async function stop(): Promise<void> {
  if (client) {
    const c = client;
    client = undefined;
    await c.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('cudaAccessLint.restart', async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('cudaAccessLint') || !client)
        return;
      if (restartSettings.some((s) => e.affectsConfiguration(`cudaAccessLint.${s}`))) {
        await stop();
        await start();
      } else {
        await client.sendNotification('workspace/didChangeConfiguration',
                                      { settings: liveSettings(readSettings()) });
      }
    }),
  );
  await start();
}

export function deactivate(): Promise<void> | undefined {
  return client ? stop() : undefined;
}

export { configurationSection };

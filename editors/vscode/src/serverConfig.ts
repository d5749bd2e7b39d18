// How the extension starts the server, from its settings: kept apart from
// the VS Code API so the tests run on plain node.

import * as path from 'path';

export interface Settings {
  path: string;
  buildDirectory: string;
  inlayHints: boolean;
  extraArgs: string[];
}

export interface ServerLaunch {
  command: string;
  args: string[];
  initializationOptions: { inlayHints: boolean };
}

/// The files the server lints: CUDA as VS Code's C/C++ support names it.
export const documentSelector = [{ scheme: 'file', language: 'cuda-cpp' }];

/// The settings section the server is sent on didChangeConfiguration.
export const configurationSection = 'cuda-access-lint';

export function serverLaunch(s: Settings, workspaceFolder?: string): ServerLaunch {
  const args = ['--lsp'];
  if (s.buildDirectory) {
    const dir = path.isAbsolute(s.buildDirectory) || !workspaceFolder
      ? s.buildDirectory
      : path.join(workspaceFolder, s.buildDirectory);
    args.push('-p', dir);
  }
  args.push(...s.extraArgs);
  return {
    command: s.path || 'cuda-access-lint',
    args,
    initializationOptions: { inlayHints: s.inlayHints },
  };
}

/// The settings a server that is running can take without a restart.
export function liveSettings(s: Settings): object {
  return { [configurationSection]: { inlayHints: s.inlayHints } };
}

/// Whether a change of these settings needs the server started again.
export const restartSettings = ['path', 'buildDirectory', 'extraArgs'];

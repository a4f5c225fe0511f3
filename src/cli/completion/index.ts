import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { bashScript } from './bash';
import { fishScript } from './fish';
import { zshScript } from './zsh';

export function completionScript(shell: string, program: CommandUnknownOpts): string | undefined {
  if (shell === 'bash') return bashScript(program);
  if (shell === 'zsh') return zshScript(program);
  if (shell === 'fish') return fishScript(program);
  return undefined;
}

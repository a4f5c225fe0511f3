import { styleText } from 'node:util';

export type Style = Parameters<typeof styleText>[0];

/**
 * Colour when `color` says so. The decision (terminal, NO_COLOR, FORCE_COLOR, --no-color) is made once
 * in the settings; styleText must not make it again from process.stdout.
 */
export function paint(style: Style, text: string, color: boolean | undefined): string {
  return color && text ? styleText(style, text, { validateStream: false }) : text;
}

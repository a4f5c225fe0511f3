// Commands that work on this machine (profiles, the sandbox), with the runtime and renderer they share.
export * as profile from './profile';
export * as sandbox from './sandbox';
export { createRuntime, settingsFrom } from '../runtime';
export { emit } from '../emit';

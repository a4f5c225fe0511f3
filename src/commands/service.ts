// Everything a command that talks to the service needs, gathered in one module so that the bundle
// loads it as a few files rather than one per source module (each file costs a start-up round trip).
import '../client/http';
import '../client/client';

export * as orders from './orders';
export * as payments from './payments';
export * as plans from './plans';
export * as subscriptions from './subscriptions';
export * as wallet from './wallet';
export * as api from './api';
export { createRuntime, settingsFrom } from '../runtime';
export { emit } from '../emit';

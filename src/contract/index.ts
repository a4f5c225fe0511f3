export * from './limits';
export * from './vocabulary';
export * from './rules';
export * from './common';
export * from './resources';
export * from './requests';
export * from './endpoints';
export * from './describe';

export * from './common';
export * from './resources';
export * from './requests';
export * from './endpoints';
export * from './describe';

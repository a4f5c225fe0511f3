#!/usr/bin/env node
import module from 'node:module';

// Node >= 22.1 can cache compiled code between runs; on Node 20 this is simply absent.
module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');
main(process.argv.slice(2));

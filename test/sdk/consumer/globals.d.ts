// The scratch project compiles without the DOM or Node type libraries: the globals it uses.
declare const process: { argv: string[] };
declare const console: { log(...values: unknown[]): void };

/** Every wire shape (see common.ts). */
export * from './common.js'
export * from './memories.js'
export * from './operations.js'
export * from './sharing.js'
export * from './insight.js'
export * from './system.js'

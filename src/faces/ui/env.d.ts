declare module '*.css'
/** The npm package mem is installed as (scripts/build-ui.mjs defines it from package.json). */
declare const __MEM_PACKAGE__: string

import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class PackImport extends MemCommand {
  static summary = 'Import a .mem pack file into this repository.'
  static description = `The whole file is checked first: a damaged, truncated, foreign or newer-format pack is refused (exit 2) and nothing is written. Memories get new ids in this repository; duplicates of live memories and entries the secret scanner flags are skipped. --json prints the same body as POST /api/mem/packs/import.`
  static examples = [`<%= config.bin %> pack import app.mem`, `<%= config.bin %> pack import ../team-memory/packs/app.mem --repo ~/src/api --json`]
  static args = {file: Args.string({required: true, description: 'The .mem pack file.'})}

  async run() {
    const {args, flags} = await this.parse(PackImport)
    const {readFileSync, statSync} = await import('node:fs')
    const {resolve} = await import('node:path')
    const {MemError} = await import('../../../../model/errors.js')
    const {MAX_PACK_BYTES} = await import('../../../../storage/pack-file.js')
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const file = resolve(process.cwd(), args.file)
    let size: number
    try {
      const st = statSync(file)
      if (!st.isFile()) throw Object.assign(new Error('not a file'), {code: 'EISDIR'})
      size = st.size
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      throw new MemError(code === 'ENOENT' ? 'not_found' : 'invalid_input', `Cannot read ${file}${code === 'ENOENT' ? ': no such file' : ` (${code ?? 'error'})`}.`, {
        hint: 'Give the path of a .mem pack written by `mem pack export`.',
      })
    }
    if (size > MAX_PACK_BYTES) {
      throw new MemError('payload_too_large', `${file} is ${size.toLocaleString('en-US')} bytes; a pack holds at most ${MAX_PACK_BYTES.toLocaleString('en-US')}.`)
    }
    const result = await this.runOp(ops.packImport, {repo: this.repoRef(flags), data: readFileSync(file)})
    this.log(`Imported ${result.imported} ${result.imported === 1 ? 'memory' : 'memories'} from pack ${result.name} ${result.version} (${result.packId}); skipped ${result.skipped}.`)
    return result
  }
}

import {Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class PackExport extends MemCommand {
  static summary = 'Export this repository\'s live memories as a .mem pack file.'
  static description = `A pack is a SQLite database (any SQLite tool reads it) with a manifest (format version, pack id, name, version, source repo, creation time, entry count, sha-256 of the entries) and the memories. Commit it to a git repository that others mount as a shared layer, or import it elsewhere with \`mem pack import\`. Cross-repo links stay out of packs. With --json it prints the file written and the manifest.`
  static examples = [
    `<%= config.bin %> pack export`,
    `<%= config.bin %> pack export --out ../team-memory/packs/app.mem --name app --pack-version 1.4.0`,
    `<%= config.bin %> pack export --out /tmp/app.mem --json`,
  ]
  static flags = {
    out: Flags.string({char: 'o', summary: 'File to write (default: <name>.mem in the working directory).'}),
    name: Flags.string({summary: "Pack name (default: the repository's folder name)."}),
    'pack-version': Flags.string({summary: 'Pack version (default: the export time, YYYYMMDD.HHMMSS).'}),
  }

  async run() {
    const {flags} = await this.parse(PackExport)
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const {writeFileSync} = await import('node:fs')
    const {resolve} = await import('node:path')
    const {MemError} = await import('../../../../model/errors.js')
    const result = await this.runOp(ops.packExport, {repo: this.repoRef(flags), name: flags.name, version: flags['pack-version']})
    const file = resolve(process.cwd(), flags.out ?? result.fileName)
    try {
      writeFileSync(file, result.data)
    } catch (err) {
      throw new MemError('invalid_input', `Cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`, {hint: 'Check that its folder exists and is writable, or pass another --out.'})
    }
    const m = result.manifest
    this.log(`Exported ${m.entryCount} ${m.entryCount === 1 ? 'memory' : 'memories'} to ${file}`)
    this.log(`  pack ${m.name} ${m.version} (${m.packId}), ${result.data.length.toLocaleString('en-US')} bytes, sha-256 of entries ${m.entriesSha256.slice(0, 16)}…`)
    return {file, bytes: result.data.length, manifest: m}
  }
}

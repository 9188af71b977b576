import {MemCommand} from '../../mem-command.js'

export default class KeysList extends MemCommand {
  static summary = 'List the API keys (names, scopes, creation dates and prefixes; never the keys).'
  static examples = [`<%= config.bin %> keys list`, `<%= config.bin %> keys list --json`]

  async run() {
    await this.parse(KeysList)
    const {listKeys} = await import('../../../../config/api-keys.js')
    const listing = await listKeys(await this.home())
    this.log(`API key auth: ${listing.authEnabled ? 'on' : 'off'}`)
    if (listing.keys.length === 0) this.log('No keys. Create one with `mem keys create NAME --scope read|write|admin`.')
    for (const k of listing.keys) this.log(`${k.name.padEnd(20)} ${k.scope.padEnd(6)} ${k.created.slice(0, 19).replace('T', ' ')}  ${k.prefix}…`)
    return listing
  }
}

import envPaths from 'env-paths'

/** MEM_HOME, else the platform config dir for mem (e.g. ~/.config/mem on Linux). */
export function resolveHome(env: Record<string, string | undefined>): string {
  return env.MEM_HOME && env.MEM_HOME.trim() ? env.MEM_HOME : envPaths('mem', {suffix: ''}).config
}

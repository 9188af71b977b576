// The CPU each test file and each test spends, for finding where the suite's time goes (issue 32):
// with MEM_TEST_CPU_LOG=<file> set, vitest.config.ts runs this before every test file, and it appends
//   FILE <cpu s> <wall s> <path>        after each file
//   TEST <cpu s> <path> <test name>     after each test
// where CPU is this worker's user + system time and that of the child processes it waited for
// (/proc/self/stat: a spawned CLI, git, npm, an agent host, Chromium once closed), in seconds.
// Processes nobody waits for (detached, or killed with their group) are not counted. Linux only.
// Summed per file it changes far less with the machine's load than wall time does:
//   awk -F'\t' '$1=="FILE"{s+=$2} END{print s}' "$MEM_TEST_CPU_LOG"
//   grep ^FILE "$MEM_TEST_CPU_LOG" | sort -t$'\t' -k2 -rn | head -25
import {appendFileSync, readFileSync} from 'node:fs'
import {afterAll, afterEach, beforeAll, beforeEach, expect} from 'vitest'

const LOG = process.env.MEM_TEST_CPU_LOG

/** Seconds of CPU of this process and its waited-for children (utime, stime, cutime, cstime). */
function cpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  // the fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100
}

if (LOG) {
  let fileCpu = 0
  let fileWall = 0
  let testCpu = 0
  beforeAll(() => {
    fileCpu = cpu()
    fileWall = Date.now()
  })
  afterAll(() => {
    appendFileSync(LOG, `FILE\t${(cpu() - fileCpu).toFixed(2)}\t${((Date.now() - fileWall) / 1000).toFixed(2)}\t${expect.getState().testPath ?? '?'}\n`)
  })
  beforeEach(() => {
    testCpu = cpu()
  })
  afterEach((context) => {
    appendFileSync(LOG, `TEST\t${(cpu() - testCpu).toFixed(2)}\t${expect.getState().testPath ?? '?'}\t${context.task.name}\n`)
  })
}

// The seccomp filter that closes local (Unix) sockets inside the sandbox: `socket(AF_UNIX, …)`
// fails with EPERM, wherever the socket the agent wants lives. A list of socket paths to hide
// could never be complete (sockets are made at any time, anywhere the user can write, and abstract
// ones have no path at all); a process that cannot make a Unix socket reaches none of them.
//
// bubblewrap loads it with `--seccomp FD`: a classic-BPF program, an array of `struct sock_filter`
// ({ u16 code; u8 jt; u8 jf; u32 k }, native byte order) run by the kernel on every system call
// over `struct seccomp_data` ({ int nr; u32 arch; u64 instruction_pointer; u64 args[6] }).
//
// What it decides, by the call's audit architecture (a process can enter the kernel through more
// than one ABI, and each has its own numbers):
// - x86_64: socket (41) with domain AF_UNIX is refused. The x32 ABI (numbers with bit 30 set,
//   same audit arch) is refused whole: its socket call is another number, and no agent needs x32.
// - aarch64: socket (198) with domain AF_UNIX is refused.
// - i386 on x86_64 and 32-bit ARM on aarch64 (compat ABIs, reachable by running a 32-bit binary):
//   socket (359 / 281) with AF_UNIX is refused, and socketcall (102) is refused whole, since its
//   arguments sit behind a pointer a filter cannot read; 32-bit programs keep everything else.
// - Any other architecture: every call is refused. It cannot occur on the two hosts this filter
//   is loaded on (the sandbox refuses to start elsewhere: unixSocketFilterSupported).
// - io_uring_setup (425 in every table) is refused: an io_uring can open sockets (IORING_OP_SOCKET)
//   without passing through this filter.
// Only the domain's low 32 bits are compared: the kernel reads it as an int, so a caller that sets
// the upper bits still gets AF_UNIX, and a 64-bit comparison would let it through.
// socketpair stays allowed: a connected pair reaches nothing outside, and Node and shells use it.

import { endianness } from 'node:os';

const BPF_LD_W_ABS = 0x20;
const BPF_JMP_JEQ_K = 0x15;
const BPF_JMP_JGE_K = 0x35;
const BPF_RET_K = 0x06;

export const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
export const SECCOMP_RET_EPERM = SECCOMP_RET_ERRNO | EPERM;

export const AUDIT_ARCH = {
  x86_64: 0xc000003e,
  i386: 0x40000003,
  aarch64: 0xc00000b7,
  arm: 0x40000028,
} as const;
export const X32_SYSCALL_BIT = 0x40000000;
export const AF_UNIX = 1;

/** Offsets in struct seccomp_data; args[0]'s low half comes first on these little-endian ABIs. */
export const SECCOMP_DATA = { nr: 0, arch: 4, arg0Low: 16 } as const;

interface ArchTable {
  arch: number;
  socket: number;
  /** Calls refused whatever their arguments. */
  refused: number[];
  /** Refuse every number at or above this one (x32). */
  refusedFrom?: number;
}

const IO_URING_SETUP = 425;
const SOCKETCALL = 102;

export const ARCH_TABLES: readonly ArchTable[] = [
  { arch: AUDIT_ARCH.x86_64, socket: 41, refused: [IO_URING_SETUP], refusedFrom: X32_SYSCALL_BIT },
  { arch: AUDIT_ARCH.aarch64, socket: 198, refused: [IO_URING_SETUP] },
  { arch: AUDIT_ARCH.i386, socket: 359, refused: [SOCKETCALL, IO_URING_SETUP] },
  { arch: AUDIT_ARCH.arm, socket: 281, refused: [SOCKETCALL, IO_URING_SETUP] },
];

export interface BpfInstruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** Where a jump goes: the next instruction, a label, or one of the two endings. */
type Target = 'next' | 'allow' | 'deny' | `arch:${number}` | 'domain';

type Step =
  | { label?: Target; op: 'load'; offset: number }
  | { label?: Target; op: 'jeq' | 'jge'; k: number; yes: Target; no: Target }
  | { label?: Target; op: 'ret'; k: number };

/** The program as labelled steps, in order; every jump goes forward. */
function steps(): Step[] {
  const out: Step[] = [{ op: 'load', offset: SECCOMP_DATA.arch }];
  for (const table of ARCH_TABLES) {
    out.push({ op: 'jeq', k: table.arch, yes: `arch:${table.arch}`, no: 'next' });
  }
  out.push({ op: 'ret', k: SECCOMP_RET_EPERM });
  for (const table of ARCH_TABLES) {
    out.push({ label: `arch:${table.arch}`, op: 'load', offset: SECCOMP_DATA.nr });
    if (table.refusedFrom !== undefined)
      out.push({ op: 'jge', k: table.refusedFrom, yes: 'deny', no: 'next' });
    out.push({ op: 'jeq', k: table.socket, yes: 'domain', no: 'next' });
    table.refused.forEach((nr, i) => {
      const last = i === table.refused.length - 1;
      out.push({ op: 'jeq', k: nr, yes: 'deny', no: last ? 'allow' : 'next' });
    });
  }
  out.push({ label: 'domain', op: 'load', offset: SECCOMP_DATA.arg0Low });
  out.push({ op: 'jeq', k: AF_UNIX, yes: 'deny', no: 'allow' });
  out.push({ label: 'allow', op: 'ret', k: SECCOMP_RET_ALLOW });
  out.push({ label: 'deny', op: 'ret', k: SECCOMP_RET_EPERM });
  return out;
}

/** The filter's instructions, jumps resolved to offsets. */
export function unixSocketFilterProgram(): BpfInstruction[] {
  const program = steps();
  const at = new Map<Target, number>();
  program.forEach((step, index) => {
    if (step.label) at.set(step.label, index);
  });
  const offset = (from: number, target: Target): number => {
    if (target === 'next') return 0;
    const to = at.get(target);
    // Classic BPF jumps forward only, by at most 255 instructions.
    if (to === undefined || to <= from || to - from - 1 > 255)
      throw new Error(`unreachable jump target ${target}`);
    return to - from - 1;
  };
  return program.map((step, index) => {
    if (step.op === 'load') return { code: BPF_LD_W_ABS, jt: 0, jf: 0, k: step.offset };
    if (step.op === 'ret') return { code: BPF_RET_K, jt: 0, jf: 0, k: step.k };
    return {
      code: step.op === 'jeq' ? BPF_JMP_JEQ_K : BPF_JMP_JGE_K,
      jt: offset(index, step.yes),
      jf: offset(index, step.no),
      k: step.k,
    };
  });
}

/** The program as bwrap's `--seccomp` reads it: 8 bytes an instruction, little-endian. */
export function unixSocketFilterBytes(): Buffer {
  const program = unixSocketFilterProgram();
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(({ code, jt, jf, k }, i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k, i * 8 + 4);
  });
  return bytes;
}

/**
 * Whether this host's system calls are among the filter's tables. Elsewhere (riscv64, ppc64le,
 * s390x, a big-endian host) the sandbox does not start rather than run with local sockets open.
 */
export function unixSocketFilterSupported(
  arch: string = process.arch,
  byteOrder: string = endianness(),
): boolean {
  return (arch === 'x64' || arch === 'arm64') && byteOrder === 'LE';
}

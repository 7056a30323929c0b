// The Unix-socket filter decoded from the bytes bwrap reads and run by a small classic-BPF
// interpreter over seccomp_data, one call per branch; every instruction must be reached.
import { describe, expect, it } from 'vitest';
import {
  AF_UNIX,
  AUDIT_ARCH,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_EPERM,
  X32_SYSCALL_BIT,
  unixSocketFilterBytes,
  unixSocketFilterSupported,
  type BpfInstruction,
} from './seccomp-filter';

function decode(bytes: Buffer): BpfInstruction[] {
  expect(bytes.length % 8).toBe(0);
  const out: BpfInstruction[] = [];
  for (let at = 0; at < bytes.length; at += 8) {
    out.push({
      code: bytes.readUInt16LE(at),
      jt: bytes.readUInt8(at + 2),
      jf: bytes.readUInt8(at + 3),
      k: bytes.readUInt32LE(at + 4),
    });
  }
  return out;
}

interface Call {
  arch: number;
  nr: number;
  /** args[0] as the 64-bit register holds it. */
  arg0?: bigint;
}

/** struct seccomp_data, little-endian. */
function seccompData({ arch, nr, arg0 = 0n }: Call): Buffer {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr | 0, 0);
  data.writeUInt32LE(arch, 4);
  data.writeBigUInt64LE(arg0, 16);
  return data;
}

/** Runs the program as the kernel would: only the opcodes a seccomp filter may use here. */
function run(program: BpfInstruction[], call: Call, seen: Set<number>): number {
  const data = seccompData(call);
  let acc = 0;
  for (let pc = 0; pc < program.length; pc++) {
    seen.add(pc);
    const { code, jt, jf, k } = program[pc]!;
    if (code === 0x20) {
      // A 32-bit load at a fixed offset, aligned, inside the structure.
      expect(k % 4).toBe(0);
      expect(k + 4).toBeLessThanOrEqual(64);
      acc = data.readUInt32LE(k);
    } else if (code === 0x15) pc += acc === k >>> 0 ? jt : jf;
    else if (code === 0x35) pc += acc >= k >>> 0 ? jt : jf;
    else if (code === 0x06) return k >>> 0;
    else throw new Error(`unexpected opcode ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the program ran off its end');
}

const program = decode(unixSocketFilterBytes());
const seen = new Set<number>();
const decide = (call: Call): number => run(program, call, seen);
const ALLOW = SECCOMP_RET_ALLOW;
const EPERM = SECCOMP_RET_EPERM;
const AF_INET = 2n;

describe('the Unix-socket seccomp filter', () => {
  it('encodes EPERM as SECCOMP_RET_ERRNO | 1, and ALLOW as 0x7fff0000', () => {
    expect(EPERM).toBe(0x00050001);
    expect(ALLOW).toBe(0x7fff0000);
  });

  it.each([
    ['x86_64', AUDIT_ARCH.x86_64, 41],
    ['aarch64', AUDIT_ARCH.aarch64, 198],
    ['i386', AUDIT_ARCH.i386, 359],
    ['arm', AUDIT_ARCH.arm, 281],
  ])('%s: socket(AF_UNIX) is refused, other domains and calls pass', (_name, arch, socket) => {
    expect(decide({ arch, nr: socket, arg0: BigInt(AF_UNIX) })).toBe(EPERM);
    expect(decide({ arch, nr: socket, arg0: AF_INET })).toBe(ALLOW);
    expect(decide({ arch, nr: socket, arg0: 10n })).toBe(ALLOW);
    // The kernel reads the domain as an int: upper bits set are still AF_UNIX.
    expect(decide({ arch, nr: socket, arg0: 0xffffffff00000001n })).toBe(EPERM);
    expect(decide({ arch, nr: socket, arg0: 0x100000002n })).toBe(ALLOW);
    // io_uring could open sockets beside the filter.
    expect(decide({ arch, nr: 425, arg0: BigInt(AF_UNIX) })).toBe(EPERM);
    // Some other call with AF_UNIX's value as its first argument (write to fd 1, exit(1)).
    expect(decide({ arch, nr: 1, arg0: 1n })).toBe(ALLOW);
    expect(decide({ arch, nr: 0, arg0: 1n })).toBe(ALLOW);
  });

  it('leaves socketpair alone on every architecture', () => {
    expect(decide({ arch: AUDIT_ARCH.x86_64, nr: 53, arg0: 1n })).toBe(ALLOW);
    expect(decide({ arch: AUDIT_ARCH.aarch64, nr: 199, arg0: 1n })).toBe(ALLOW);
    expect(decide({ arch: AUDIT_ARCH.i386, nr: 360, arg0: 1n })).toBe(ALLOW);
    expect(decide({ arch: AUDIT_ARCH.arm, nr: 288, arg0: 1n })).toBe(ALLOW);
  });

  it('refuses the x32 ABI whole on x86_64, its socket call included', () => {
    expect(decide({ arch: AUDIT_ARCH.x86_64, nr: X32_SYSCALL_BIT | 41, arg0: 1n })).toBe(EPERM);
    expect(decide({ arch: AUDIT_ARCH.x86_64, nr: X32_SYSCALL_BIT | 0, arg0: 0n })).toBe(EPERM);
    expect(decide({ arch: AUDIT_ARCH.x86_64, nr: X32_SYSCALL_BIT - 1 })).toBe(ALLOW);
  });

  it('refuses socketcall on the 32-bit ABIs: its arguments are behind a pointer', () => {
    expect(decide({ arch: AUDIT_ARCH.i386, nr: 102, arg0: 1n })).toBe(EPERM);
    expect(decide({ arch: AUDIT_ARCH.arm, nr: 102, arg0: 1n })).toBe(EPERM);
    // 102 on the 64-bit ABIs is another call (getuid on x86_64).
    expect(decide({ arch: AUDIT_ARCH.x86_64, nr: 102 })).toBe(ALLOW);
    expect(decide({ arch: AUDIT_ARCH.aarch64, nr: 102 })).toBe(ALLOW);
  });

  it('refuses every call of an architecture it has no table for', () => {
    // riscv64, and big-endian aarch64.
    expect(decide({ arch: 0xc00000f3, nr: 198, arg0: 2n })).toBe(EPERM);
    expect(decide({ arch: 0x800000b7, nr: 0 })).toBe(EPERM);
  });

  it('reaches every instruction through the calls above, and jumps only forward within it', () => {
    expect(seen.size).toBe(program.length);
    program.forEach(({ code, jt, jf }, pc) => {
      if (code === 0x15 || code === 0x35) {
        expect(pc + 1 + jt).toBeLessThan(program.length);
        expect(pc + 1 + jf).toBeLessThan(program.length);
      }
    });
    expect(program.at(-1)!.code).toBe(0x06);
  });

  it('is supported on little-endian x86_64 and aarch64 hosts only', () => {
    expect(unixSocketFilterSupported('x64', 'LE')).toBe(true);
    expect(unixSocketFilterSupported('arm64', 'LE')).toBe(true);
    expect(unixSocketFilterSupported('arm64', 'BE')).toBe(false);
    expect(unixSocketFilterSupported('riscv64', 'LE')).toBe(false);
    expect(unixSocketFilterSupported('ia32', 'LE')).toBe(false);
  });
});

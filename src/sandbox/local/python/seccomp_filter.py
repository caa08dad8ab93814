"""The seccomp filter every sandboxed program runs under: no new processes, no reach into other processes, no state that outlives it.

A process under the filter can signal only itself and its own process group, and cannot leave that group: joining
another group (setpgid) or making one (setsid) would put the trusted checker or the fork server within reach of
kill(0, …), and an I/O owner (fcntl F_SETOWN, ioctl FIOSETOWN) would have the kernel send SIGIO to any process.

Installed by trusted code after fork and before the untrusted program loads (prctl PR_SET_NO_NEW_PRIVS, then
PR_SET_SECCOMP with a classic BPF program assembled here). A denied call kills the whole process (SIGSYS), so a
program cannot catch the refusal and carry on. clone3 answers ENOSYS instead: its flags sit behind a pointer the
filter cannot read, and glibc then falls back to clone, whose flags it can read (threads keep working).
"""
import ctypes
import os
import struct

# struct seccomp_data: nr (u32) at 0, arch (u32) at 4, instruction pointer (u64) at 8, args (6 × u64) from 16.
_NR_OFFSET, _ARCH_OFFSET, _ARG0_LOW_OFFSET, _ARG1_LOW_OFFSET = 0, 4, 16, 24
_LOAD_WORD, _JUMP_EQUAL, _JUMP_SET, _JUMP_GREATER_EQUAL, _RETURN = 0x20, 0x15, 0x45, 0x35, 0x06
_ALLOW, _KILL_PROCESS, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_ENOSYS = 38
_CLONE_THREAD = 0x00010000
_PR_SET_DUMPABLE, _PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 4, 38, 22, 2

# Calls that start a process, reach into another process, or leave state behind (SysV IPC, keyrings, message
# queues); io_uring because its operations bypass seccomp; unshare/setns/mount because the sandbox is fixed.
_DENIED = ("fork", "vfork", "execve", "execveat", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open",
           "pidfd_getfd", "pidfd_send_signal", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "tkill", "add_key", "request_key",
           "keyctl", "shmget", "semget", "msgget", "mq_open", "unshare", "setns", "mount", "bpf", "perf_event_open",
           "io_uring_setup", "io_uring_enter", "io_uring_register", "setsid")
# fcntl commands and ioctl requests that name a process or group to receive SIGIO/SIGURG (asm-generic/fcntl.h, sockios.h).
_F_SETOWN, _F_SETOWN_EX, _FIOSETOWN, _SIOCSPGRP = 8, 15, 0x8901, 0x8902

# System call numbers (Linux uapi: asm/unistd_64.h for x86-64, asm-generic/unistd.h for aarch64) and AUDIT_ARCH_*.
_ARCHITECTURES = {
    "x86_64": (0xC000003E, {
        "fork": 57, "vfork": 58, "clone": 56, "clone3": 435, "execve": 59, "execveat": 322, "ptrace": 101, "kill": 62,
        "tkill": 200, "tgkill": 234, "prlimit64": 302, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
        "pidfd_open": 434, "pidfd_getfd": 438, "pidfd_send_signal": 424, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
        "add_key": 248, "request_key": 249, "keyctl": 250, "shmget": 29, "semget": 64, "msgget": 68, "mq_open": 240,
        "unshare": 272, "setns": 308, "mount": 165, "bpf": 321, "perf_event_open": 298, "io_uring_setup": 425,
        "io_uring_enter": 426, "io_uring_register": 427, "setpgid": 109, "setsid": 112, "fcntl": 72, "ioctl": 16,
    }),
    "aarch64": (0xC00000B7, {
        "clone": 220, "clone3": 435, "execve": 221, "execveat": 281, "ptrace": 117, "kill": 129, "tkill": 130,
        "tgkill": 131, "prlimit64": 261, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272,
        "pidfd_open": 434, "pidfd_getfd": 438, "pidfd_send_signal": 424, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240,
        "add_key": 217, "request_key": 218, "keyctl": 219, "shmget": 194, "semget": 190, "msgget": 186, "mq_open": 180,
        "unshare": 97, "setns": 268, "mount": 40, "bpf": 280, "perf_event_open": 241, "io_uring_setup": 425,
        "io_uring_enter": 426, "io_uring_register": 427, "setpgid": 154, "setsid": 157, "fcntl": 25, "ioctl": 29,
    }),
}
# x86-64 also accepts x32 system calls: numbers with this bit set. The filter kills them all.
_X32_SYSCALL_BIT = 0x40000000


class SeccompUnavailable(Exception):
    """The filter cannot be installed here; the caller must refuse to run untrusted code."""


# Stands for the guarded process's pid in the instructions: the pid is known only after fork, so the program is
# assembled once (in the fork server) and each forked process writes its own pid into these places.
_PID = object()
_INSTRUCTION = struct.Struct("=HBBI")
_VALUE_OFFSET = 4  # of k (u32) within struct sock_filter


def _assemble(instructions):
    """Resolves label jumps and packs struct sock_filter entries (u16 code, u8 jt, u8 jf, u32 k).

    Returns the program with 0 where `_PID` stands, and the byte offsets of those values.
    """
    positions, body = {}, []
    for item in instructions:
        if isinstance(item, str):
            positions[item] = len(body)
        else:
            body.append(item)
    packed, pid_offsets = [], []
    for index, (code, value, when_true, when_false) in enumerate(body):
        # Jumps are forward offsets from the next instruction; None falls through.
        true_offset = 0 if when_true is None else positions[when_true] - index - 1
        false_offset = 0 if when_false is None else positions[when_false] - index - 1
        if value is _PID:
            pid_offsets.append(index * _INSTRUCTION.size + _VALUE_OFFSET)
            value = 0
        packed.append(_INSTRUCTION.pack(code, true_offset, false_offset, value))
    return b"".join(packed), tuple(pid_offsets)


_templates = {}


def _template(machine):
    """`machine`'s program in a C buffer with 0 where the pid goes, its sock_fprog header, and the pid's byte offsets.

    Assembled once per process: the fork server prepares it, and each forked process writes its pid into its own copy.
    """
    if machine not in _templates:
        program, pid_offsets = _assemble(_instructions(machine))
        buffer = ctypes.create_string_buffer(program, len(program))
        _templates[machine] = (buffer, _FilterProgram(len(program) // _INSTRUCTION.size, ctypes.addressof(buffer)), pid_offsets)
    return _templates[machine]


def build_filter(machine, pid):
    """The BPF program for `machine` (os.uname().machine) and the process `pid` it will guard."""
    buffer, _, pid_offsets = _template(machine)
    program = bytearray(buffer.raw)
    for offset in pid_offsets:
        struct.pack_into("=I", program, offset, pid)
    return bytes(program)


def prepare():
    """Assembles this machine's program ahead of the forks; an unknown architecture is left for install to refuse."""
    try:
        _template(os.uname().machine)
    except SeccompUnavailable:
        pass


def _instructions(machine):
    """The filter's instructions and labels for `machine`, with `_PID` where the guarded process's pid goes."""
    if machine not in _ARCHITECTURES:
        raise SeccompUnavailable("no seccomp filter for architecture %s: refusing to run programs unfiltered" % machine)
    audit_arch, numbers = _ARCHITECTURES[machine]
    code = [(_LOAD_WORD, _ARCH_OFFSET, None, None), (_JUMP_EQUAL, audit_arch, None, "kill"), (_LOAD_WORD, _NR_OFFSET, None, None)]
    if machine == "x86_64":
        code.append((_JUMP_GREATER_EQUAL, _X32_SYSCALL_BIT, "kill", None))
    code += [(_JUMP_EQUAL, numbers[name], "kill", None) for name in _DENIED if name in numbers]
    code += [
        (_JUMP_EQUAL, numbers["clone3"], "enosys", None),
        (_JUMP_EQUAL, numbers["clone"], "clone", None),
        (_JUMP_EQUAL, numbers["kill"], "self_or_group", None),
        (_JUMP_EQUAL, numbers["prlimit64"], "self_or_group", None),
        (_JUMP_EQUAL, numbers["tgkill"], "self", None),
        (_JUMP_EQUAL, numbers["setpgid"], "own_group", None),
        (_JUMP_EQUAL, numbers["fcntl"], "fcntl", None),
        (_JUMP_EQUAL, numbers["ioctl"], "ioctl", None),
        (_RETURN, _ALLOW, None, None),
        # clone: only with CLONE_THREAD (a thread of this process); the flags are the first argument on both arches.
        "clone", (_LOAD_WORD, _ARG0_LOW_OFFSET, None, None), (_JUMP_SET, _CLONE_THREAD, "allow", "kill"),
        # kill / prlimit64: pid 0 (own group; the program is its group's only process) or its own pid.
        "self_or_group", (_LOAD_WORD, _ARG0_LOW_OFFSET, None, None), (_JUMP_EQUAL, 0, "allow", None), (_JUMP_EQUAL, _PID, "allow", "kill"),
        "self", (_LOAD_WORD, _ARG0_LOW_OFFSET, None, None), (_JUMP_EQUAL, _PID, "allow", "kill"),
        # setpgid: only this process (0 or its pid) into its own group (0 or its pid), which it already leads.
        "own_group", (_LOAD_WORD, _ARG0_LOW_OFFSET, None, None), (_JUMP_EQUAL, 0, "own_group_target", None), (_JUMP_EQUAL, _PID, "own_group_target", "kill"),
        "own_group_target", (_LOAD_WORD, _ARG1_LOW_OFFSET, None, None), (_JUMP_EQUAL, 0, "allow", None), (_JUMP_EQUAL, _PID, "allow", "kill"),
        # fcntl / ioctl: every command except those that set a SIGIO owner (the command is the second argument).
        "fcntl", (_LOAD_WORD, _ARG1_LOW_OFFSET, None, None), (_JUMP_EQUAL, _F_SETOWN, "kill", None), (_JUMP_EQUAL, _F_SETOWN_EX, "kill", "allow"),
        "ioctl", (_LOAD_WORD, _ARG1_LOW_OFFSET, None, None), (_JUMP_EQUAL, _FIOSETOWN, "kill", None), (_JUMP_EQUAL, _SIOCSPGRP, "kill", "allow"),
        "allow", (_RETURN, _ALLOW, None, None),
        "kill", (_RETURN, _KILL_PROCESS, None, None),
        "enosys", (_RETURN, _ERRNO | _ENOSYS, None, None),
    ]
    return code


class _FilterProgram(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
_libc.prctl.restype = ctypes.c_int


def make_undumpable():
    """PR_SET_DUMPABLE 0: a process of the same uid can no longer ptrace this one or read its memory."""
    _libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def install():
    """Installs the filter on the calling (single-threaded) process; raises SeccompUnavailable when the kernel refuses."""
    buffer, header, pid_offsets = _template(os.uname().machine)
    pid = os.getpid()
    for offset in pid_offsets:
        struct.pack_into("=I", buffer, offset, pid)  # this process's copy of the buffer (after fork, copy-on-write)
    if _libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise SeccompUnavailable("prctl(PR_SET_NO_NEW_PRIVS) failed: %s" % os.strerror(ctypes.get_errno()))
    if _libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(header), 0, 0) != 0:
        raise SeccompUnavailable("prctl(PR_SET_SECCOMP) failed: %s" % os.strerror(ctypes.get_errno()))
